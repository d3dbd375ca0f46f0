import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The event streams open now, across every process: one row per stream, its lease renewed while it
 * runs. A row whose lease has passed belongs to a process that stopped without closing it; it no
 * longer counts towards the receiver's limit and is deleted by the next open of that receiver.
 */
export const OpenStreamsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE event_streams (
      id text PRIMARY KEY,
      receiver text NOT NULL,
      opened_at timestamptz NOT NULL,
      lease_until timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX event_streams_by_receiver ON event_streams (receiver, lease_until)`
})
