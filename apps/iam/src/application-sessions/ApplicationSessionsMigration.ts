import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The application side of IAM: short-lived login tokens (one application each), application sessions (refresh
 * families bound to a parent IAM session and one application), their tokens, and on-behalf-of proofs. Every
 * credential is kept as a SHA-256 digest only.
 */
export const ApplicationSessionsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table application_short_lived_tokens (
        digest text primary key,
        app_id text not null references applications (app_id),
        identity_uuid text not null references identities (uuid),
        parent_session_id text not null references iam_sessions (id),
        org_ids jsonb not null,
        scopes jsonb not null,
        request_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index application_short_lived_tokens_expiry on application_short_lived_tokens (expires_at);
      create table application_sessions (
        id text primary key,
        app_id text not null references applications (app_id),
        identity_uuid text not null references identities (uuid),
        parent_session_id text not null references iam_sessions (id),
        org_ids jsonb not null,
        scopes jsonb not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        ended_at timestamptz,
        end_reason text
      );
      create index application_sessions_parent on application_sessions (parent_session_id);
      create table application_refresh_tokens (
        digest text primary key,
        session_id text not null references application_sessions (id),
        generation integer not null,
        issued_at timestamptz not null,
        used_at timestamptz,
        unique (session_id, generation)
      );
      create table application_access_tokens (
        digest text primary key,
        session_id text not null references application_sessions (id),
        issued_at timestamptz not null,
        expires_at timestamptz not null
      );
      create index application_access_tokens_session on application_access_tokens (session_id);
      create table on_behalf_of_proofs (
        digest text primary key,
        session_id text not null references application_sessions (id),
        audience text not null references applications (app_id),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index on_behalf_of_proofs_expiry on on_behalf_of_proofs (expires_at);
    `
)
