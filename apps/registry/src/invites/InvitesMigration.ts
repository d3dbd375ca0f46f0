import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `app_invites`: an author's invitation to an account (`invitee_uuid`, from a c: or si: id) or an email (matched
 * against the verified emails of whoever answers it). pending → accepted, declined, cancelled; a pending
 * invitation past `expires_at` shows as expired and is stored so when the same person is invited again.
 */
export const InvitesMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table app_invites (
      id text primary key,
      app_id text not null references apps (app_id),
      invitee_uuid text,
      invitee_id text,
      email text,
      status text not null check (status in ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
      invited_by_uuid text not null,
      invited_by_id text,
      invited_by_name text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      decided_at timestamptz,
      decided_by text,
      check ((invitee_uuid is null) <> (email is null))
    )
  `
  yield* sql`create unique index app_invites_pending_account on app_invites (app_id, invitee_uuid) where status = 'pending'`
  yield* sql`create unique index app_invites_pending_email on app_invites (app_id, email) where status = 'pending'`
  yield* sql`create index app_invites_to_account on app_invites (invitee_uuid, created_at) where invitee_uuid is not null`
  yield* sql`create index app_invites_to_email on app_invites (email, created_at) where email is not null`
  yield* sql`create index app_invites_of_app on app_invites (app_id, created_at)`
})
