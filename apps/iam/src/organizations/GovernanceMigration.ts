import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Organization governance (decisions.md, "Governance"): the approval settings, tags and their
 * assignment to members, trust (a default level and rules), approval requests, and Silicon token
 * rotation requests.
 */
export const GovernanceMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table organizations
      add column role_changes_need_approval boolean not null default false,
      add column tag_changes_need_approval boolean not null default false,
      add column trust_default text not null default 'neutral' check (trust_default in ('blocked', 'neutral', 'trusted'))
  `
  yield* sql`
    create table organization_tags (
      id text primary key,
      organization_id text not null references organizations (id),
      name text not null,
      name_key text not null,
      description text,
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (organization_id, name_key)
    )
  `
  yield* sql`
    create table organization_member_tags (
      organization_id text not null,
      identity_uuid text not null,
      tag_id text not null references organization_tags (id),
      assigned_at timestamptz not null,
      primary key (organization_id, identity_uuid, tag_id),
      foreign key (organization_id, identity_uuid) references organization_members (organization_id, identity_uuid)
    )
  `
  yield* sql`
    create table organization_trust_rules (
      id text primary key,
      organization_id text not null references organizations (id),
      subject_kind text not null check (subject_kind in ('organization', 'identity', 'email_domain')),
      subject_value text not null,
      level text not null check (level in ('blocked', 'neutral', 'trusted')),
      note text,
      status text not null check (status in ('active', 'archived')),
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      archived_at timestamptz
    )
  `
  yield* sql`
    create unique index organization_trust_rules_one_active on organization_trust_rules (organization_id, subject_kind, subject_value)
    where status = 'active'
  `
  yield* sql`
    create table organization_approval_requests (
      id text primary key,
      organization_id text not null references organizations (id),
      kind text not null check (kind in ('role_change', 'tag_change')),
      member_uuid text not null,
      role text check (role in ('admin', 'member')),
      tag_ids jsonb,
      status text not null check (status in ('pending', 'approved', 'rejected', 'expired')),
      requested_by text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      decided_by text,
      decided_at timestamptz
    )
  `
  yield* sql`
    create unique index organization_approval_requests_one_pending on organization_approval_requests (organization_id, member_uuid, kind)
    where status = 'pending'
  `
  yield* sql`create index organization_approval_requests_of_organization on organization_approval_requests (organization_id, created_at, id)`
  yield* sql`
    create table silicon_rotation_requests (
      id text primary key,
      organization_id text not null references organizations (id),
      silicon_uuid text not null,
      requested_by text not null,
      status text not null check (status in ('pending', 'completed')),
      created_at timestamptz not null,
      completed_at timestamptz
    )
  `
  yield* sql`
    create unique index silicon_rotation_requests_one_pending on silicon_rotation_requests (organization_id, silicon_uuid)
    where status = 'pending'
  `
})
