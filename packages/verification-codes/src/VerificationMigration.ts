import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * `verification_challenges`: one row per challenge, holding only the digest of its current
 * code (`used_at` set once a right code was entered). `verification_address_streaks`: the
 * wrong codes in a row per address (keyed by a digest, never the address) and its lock.
 */
export const VerificationMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE verification_challenges (
      id text PRIMARY KEY,
      purpose text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      destination text NOT NULL,
      code_digest text NOT NULL,
      created_at timestamptz NOT NULL,
      code_sent_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      resend_available_at timestamptz NOT NULL,
      used_at timestamptz
    )
  `
  yield* sql`CREATE INDEX verification_challenges_expires_at_idx ON verification_challenges (expires_at)`
  yield* sql`
    CREATE TABLE verification_address_streaks (
      address_digest text PRIMARY KEY,
      wrong_codes integer NOT NULL CHECK (wrong_codes >= 0),
      locked_until timestamptz,
      last_attempt_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX verification_address_streaks_last_attempt_at_idx ON verification_address_streaks (last_attempt_at)`
})
