import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * IAM's code challenges (login, signup, step-up): the sessions a six-digit code answers. An email
 * code is kept as its digest; a phone code stays with the phone verification provider. One open
 * challenge per subject: a new one ends the last (`replaced`); a right code ends it (`verified`).
 */
export const CodeChallengesMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table code_challenges (
        id text primary key,
        purpose text not null check (purpose in ('login', 'signup', 'step_up')),
        subject text not null,
        identity_uuid text,
        email text,
        email_code_digest text,
        phone text,
        details jsonb not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        ended_at timestamptz,
        end_reason text check (end_reason in ('verified', 'replaced')),
        check (email is not null or phone is not null),
        check ((email is null) = (email_code_digest is null))
      );
      create index code_challenges_open_subject on code_challenges (subject) where ended_at is null;
      create index code_challenges_expires_at on code_challenges (expires_at);
    `
)
