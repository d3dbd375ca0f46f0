import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Organizations, their members (Carbons and Silicons; a removed member keeps its row, so a
 * return is a reactivation) and invitations of Carbons (decisions.md, "Organization records").
 * The owner is the member with role owner: exactly one active per organization.
 */
export const OrganizationsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table organizations (
      id text primary key,
      name text not null,
      description text,
      version integer not null,
      created_by text not null references identities (uuid),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )
  `
  yield* sql`
    create table organization_members (
      organization_id text not null references organizations (id),
      identity_uuid text not null references identities (uuid),
      role text not null check (role in ('owner', 'admin', 'member')),
      status text not null check (status in ('active', 'removed')),
      added_by text not null,
      joined_at timestamptz not null,
      updated_at timestamptz not null,
      removed_at timestamptz,
      primary key (organization_id, identity_uuid)
    )
  `
  yield* sql`create index organization_members_of_identity on organization_members (identity_uuid) where status = 'active'`
  yield* sql`
    create unique index organization_members_one_owner on organization_members (organization_id)
    where role = 'owner' and status = 'active'
  `
  yield* sql`
    create table organization_invitations (
      id text primary key,
      organization_id text not null references organizations (id),
      invitee_email text,
      invitee_uuid text,
      invitee_id text,
      role text not null check (role in ('admin', 'member')),
      status text not null check (status in ('pending', 'accepted', 'declined', 'revoked')),
      invited_by text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      decided_at timestamptz,
      decided_by text,
      check ((invitee_email is null) <> (invitee_uuid is null))
    )
  `
  yield* sql`create index organization_invitations_of_organization on organization_invitations (organization_id, created_at)`
  yield* sql`create index organization_invitations_by_email on organization_invitations (invitee_email) where status = 'pending'`
  yield* sql`create index organization_invitations_by_uuid on organization_invitations (invitee_uuid) where status = 'pending'`
})
