import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The registry's catalogue, shared by its areas (each area's SQL stays in its own repository):
 * - `apps`: one row per app; `administrator_uuid` is one of its authors; `account_ids` holds uuids.
 * - `app_authors`: who may manage an app, with what accounts said of them when they joined.
 * - `app_history`: what happened to an app, newest last (spec 2's History item).
 * - `packages`: accepted uploads (a `.tar.gz` for one target), their bytes and their validation in the sandbox;
 *   a refused upload leaves only its history item.
 * - `releases`, `release_packages`: a release of a channel with its version and packages; a promotion makes a
 *   new production release over the same packages; a withdrawal is final.
 * - `installs`: one row per completed install (an Idempotency-Key counts once), by an account or anonymous.
 */
export const CatalogueMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table apps (
      app_id text primary key,
      name text not null,
      description text,
      logo text,
      banner text,
      carousel jsonb not null default '[]',
      links jsonb not null default '{}',
      tags text[] not null default '{}',
      setup_step integer not null default 1 check (setup_step between 1 and 7),
      status text not null default 'draft' check (status in ('draft', 'published')),
      visibility text not null default 'public' check (visibility in ('public', 'private')),
      domains text[] not null default '{}',
      account_ids text[] not null default '{}',
      administrator_uuid text not null,
      rating numeric(3, 2),
      installs bigint not null default 0,
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      published_at timestamptz
    )
  `
  yield* sql`
    create table app_authors (
      app_id text not null references apps (app_id),
      account_uuid text not null,
      account_id text,
      display_name text not null,
      joined_at timestamptz not null,
      primary key (app_id, account_uuid)
    )
  `
  yield* sql`create index app_authors_of_account on app_authors (account_uuid)`
  yield* sql`
    create table app_history (
      id text primary key,
      app_id text not null references apps (app_id),
      at timestamptz not null,
      actor_uuid text,
      kind text not null,
      data jsonb not null default '{}'
    )
  `
  yield* sql`create index app_history_of_app on app_history (app_id, at, id)`
  yield* sql`
    create table packages (
      id text primary key,
      app_id text not null references apps (app_id),
      target text not null,
      sha256 text not null,
      size integer not null,
      command text,
      validation jsonb not null,
      install_script jsonb,
      bytes bytea not null,
      uploaded_by text not null,
      created_at timestamptz not null
    )
  `
  yield* sql`create index packages_of_app on packages (app_id, created_at)`
  yield* sql`
    create table releases (
      id text primary key,
      app_id text not null references apps (app_id),
      channel text not null check (channel in ('development', 'production')),
      version text not null,
      notes text,
      promoted_from text references releases (id),
      sequence bigint not null,
      created_by text not null,
      created_at timestamptz not null,
      withdrawn_at timestamptz,
      withdrawn_by text,
      withdrawal_reason text,
      replacement_release_id text references releases (id),
      unique (app_id, channel, version)
    )
  `
  yield* sql`create index releases_of_app on releases (app_id, channel, created_at)`
  yield* sql`
    create table release_packages (
      release_id text not null references releases (id),
      package_id text not null references packages (id),
      target text not null,
      primary key (release_id, package_id),
      unique (release_id, target)
    )
  `
  yield* sql`create index release_packages_of_package on release_packages (package_id)`
  yield* sql`
    create table installs (
      id text primary key,
      app_id text not null references apps (app_id),
      release_id text not null references releases (id),
      package_id text not null references packages (id),
      target text not null,
      account_uuid text,
      created_at timestamptz not null
    )
  `
  yield* sql`create index installs_of_app on installs (app_id)`
  yield* sql`create index installs_by_target on installs (target, account_uuid)`
})
