import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { PENDING, type QueueTable } from "./QueueTable.ts"
import { wakeChannel } from "./wakeups.ts"

/**
 * Queues a job, due now (per Clock), and returns its id. It uses the caller's SqlClient, so
 * inside the caller's `sql.withTransaction` it commits or rolls back with the state change
 * that caused it.
 */
export const enqueue = <A, I extends Readonly<Record<string, unknown>>>(
  queue: QueueTable<A, I>,
  payload: A
): Effect.Effect<string, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A payload its own schema cannot encode is a programming error.
    const columns = yield* Effect.orDie(Schema.encode(queue.payload)(payload))
    const now = new Date(yield* Clock.currentTimeMillis)
    const id = randomUUID()
    // The job is announced on its queue's channel when the transaction commits, waking idle workers.
    yield* sql`
      WITH queued AS (
        INSERT INTO ${sql(queue.table)} ${
      sql.insert({ ...columns, id, status: PENDING, attempts: 0, next_attempt_at: now, created_at: now })
    }
        RETURNING 1
      )
      SELECT pg_notify(${wakeChannel(queue)}, 'wake') FROM queued
    `
    return id
  })
