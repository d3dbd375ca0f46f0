import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Step-up tokens (`sup_`, digest only): five minutes, one use, bound to identity, action, resource and application. */
export const StepUpTokensMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table step_up_tokens (
        digest text primary key,
        identity_uuid text not null,
        action text not null,
        resource_id text not null,
        application_id text,
        challenge_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index step_up_tokens_expires_at on step_up_tokens (expires_at);
    `
)
