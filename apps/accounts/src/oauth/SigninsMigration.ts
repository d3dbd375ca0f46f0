import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A sign-in is one session family: every refresh token rotated from it and
 * the browser cookie that may stand for it. Revoking the sign-in stops them all.
 */
export const SigninsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table signins (
      id text primary key,
      account_uuid text not null,
      client_id text not null,
      client_label text,
      method text not null,
      session_cookie_hash text unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      last_used_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text
    )
  `
  yield* sql`create index signins_by_account on signins (account_uuid, created_at desc)`
  yield* sql`
    create table refresh_tokens (
      token_hash text primary key,
      signin_id text not null references signins (id) on delete cascade,
      created_at timestamptz not null,
      used_at timestamptz
    )
  `
  yield* sql`create index refresh_tokens_by_signin on refresh_tokens (signin_id)`
})
