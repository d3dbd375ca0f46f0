import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Short-lived tokens (slt_, stored as SHA-256 digests) a Silicon hands one app, and each
 * custodian's allow-list of the apps its Silicon may hand them to (no row: any app).
 */
export const ShortLivedTokensMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE short_lived_tokens (
      token_hash text PRIMARY KEY,
      silicon_uuid text NOT NULL REFERENCES accounts (uuid),
      app_id text NOT NULL REFERENCES apps (app_id),
      scope text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )
  `
  yield* sql`CREATE INDEX short_lived_tokens_by_expiry ON short_lived_tokens (expires_at)`
  yield* sql`
    CREATE TABLE silicon_app_allow_lists (
      silicon_uuid text PRIMARY KEY REFERENCES accounts (uuid),
      app_ids jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `
})
