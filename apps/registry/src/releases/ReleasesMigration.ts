import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What releases add to the catalogue's tables:
 * - `releases.withdrawn_by_id`: the withdrawing author's `c:`/`si:` id as it was then (Withdrawal's by_id);
 *   `releases.author_signature`: {public_key, manifest, value}, an author's Ed25519 signature, verified when given.
 * - `release_channels`: each app's channel with its state number: every release, promotion and withdrawal in the
 *   channel takes the next one, and resolve signs it into the manifest (a client refuses a smaller one).
 * - `registry_events`: the registry's outbox (`release.created`, `release.promoted`, `release.withdrawn`), written
 *   in the transaction of the change; `position` orders it for a future stream.
 */
export const ReleasesMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table releases add column withdrawn_by_id text`
  yield* sql`alter table releases add column author_signature jsonb`
  yield* sql`
    create table release_channels (
      app_id text not null references apps (app_id),
      channel text not null check (channel in ('development', 'production')),
      sequence bigint not null,
      primary key (app_id, channel)
    )
  `
  yield* sql`
    create table registry_events (
      id text primary key,
      position bigint generated always as identity unique,
      type text not null,
      app_id text not null references apps (app_id),
      data jsonb not null,
      occurred_at timestamptz not null
    )
  `
  yield* sql`create index registry_events_of_app on registry_events (app_id, position)`
})
