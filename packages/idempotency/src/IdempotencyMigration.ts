import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Creates the table of idempotency keys: one row per (scope, key), either
 * `running` (held by one request until `locked_until`) or `done` (holding the
 * stored response until `expires_at`). A running row also has an `expires_at`,
 * the ceiling after which an abandoned claim is swept.
 */
export const IdempotencyMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('running', 'done')),
      locked_until timestamptz,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      completed_at timestamptz,
      status integer,
      headers jsonb,
      body bytea,
      PRIMARY KEY (scope, key),
      CHECK (state = 'running' OR (status IS NOT NULL AND headers IS NOT NULL AND body IS NOT NULL))
    )
  `
  yield* sql`CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`
})

/**
 * `answer_expires_at`: when a stored answer stops being replayed, before the key itself expires (an
 * answer carrying a new secret is kept 10 minutes, its key 24 hours). Null on rows written before it:
 * their answer lasts as long as their key.
 */
export const IdempotencyAnswerExpiryMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN answer_expires_at timestamptz`
})
