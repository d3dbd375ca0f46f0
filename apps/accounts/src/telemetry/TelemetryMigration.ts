import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** `telemetry_events`: what clients report about their own use, kept 90 days (retention.ts). No account, no address. */
export const TelemetryMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE telemetry_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      source text,
      step text,
      data jsonb,
      received_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX telemetry_events_by_time ON telemetry_events (received_at)`
})
