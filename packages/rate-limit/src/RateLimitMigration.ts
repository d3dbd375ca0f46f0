import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Creates the table of fixed rate-limit windows, one row per
 * (key digest, window length, window start) holding the hits counted so far.
 * `window_end` is stored so the sweep can delete by an index range.
 */
export const RateLimitMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE rate_limit_windows (
      key_digest bytea NOT NULL,
      window_seconds integer NOT NULL CHECK (window_seconds > 0),
      window_start timestamptz NOT NULL,
      window_end timestamptz NOT NULL,
      count integer NOT NULL CHECK (count > 0),
      PRIMARY KEY (key_digest, window_seconds, window_start)
    )
  `
  yield* sql`CREATE INDEX rate_limit_windows_window_end_idx ON rate_limit_windows (window_end)`
})
