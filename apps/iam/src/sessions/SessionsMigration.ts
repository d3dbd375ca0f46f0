import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * IAM sessions: one session is one refresh family (a Carbon's device session or a Silicon's session),
 * 900 days absolute. Access and refresh tokens are opaque and kept as SHA-256 digests only.
 */
export const SessionsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table iam_sessions (
        id text primary key,
        identity_uuid text not null references identities (uuid),
        method text not null check (method in ('code', 'silicon_token')),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        last_used_at timestamptz not null,
        ended_at timestamptz,
        end_reason text
      );
      create index iam_sessions_identity on iam_sessions (identity_uuid, created_at desc);
      create table iam_refresh_tokens (
        digest text primary key,
        session_id text not null references iam_sessions (id),
        generation integer not null,
        issued_at timestamptz not null,
        used_at timestamptz,
        unique (session_id, generation)
      );
      create table iam_access_tokens (
        digest text primary key,
        session_id text not null references iam_sessions (id),
        expires_at timestamptz not null
      );
      create index iam_access_tokens_session on iam_access_tokens (session_id);
    `
)
