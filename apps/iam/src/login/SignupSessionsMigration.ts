import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Signup sessions (spec 2: 48 hours): a proven email or phone waiting for its Carbon. The `sgn_` id is kept as a digest. */
export const SignupSessionsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table signup_sessions (
        digest text primary key,
        channel text not null check (channel in ('email', 'phone')),
        destination text not null,
        challenge_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        completed_at timestamptz,
        identity_uuid text
      );
      create index signup_sessions_expires_at on signup_sessions (expires_at);
    `
)
