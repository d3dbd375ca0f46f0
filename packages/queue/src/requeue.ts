import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import { rowsDecoder } from "@platform/database"
import { GAVE_UP, type QueueTable } from "./QueueTable.ts"
import { wakeChannel } from "./wakeups.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const decodeIds = rowsDecoder(Schema.Struct({ id: Schema.String }))

/**
 * Makes finished jobs (done or given up) pending again, due at `now`, keeping their ids and
 * attempt counts; pending ones are left alone. Answers the ids requeued. Runs on the caller's
 * SqlClient, so it joins the caller's transaction.
 */
export const requeue = <A, I extends Readonly<Record<string, unknown>>>(
  queue: QueueTable<A, I>,
  ids: ReadonlyArray<string>,
  now: Date
): Effect.Effect<ReadonlyArray<string>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (queue.eraseWhenFinished.length > 0) {
      return yield* Effect.dieMessage(`requeue ${queue.table}: its finished jobs have lost part of their payload`)
    }
    // Anything else is no job's id; PostgreSQL would refuse it as a uuid.
    const uuids = ids.filter((id) => UUID.test(id))
    if (uuids.length === 0) return []
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      WITH requeued AS (
        UPDATE ${sql(queue.table)} SET status = 'pending', next_attempt_at = ${now}, ${sql(queue.doneAtColumn)} = NULL,
          claimed_until = NULL, claim_token = NULL
        WHERE id IN ${sql.in(uuids)} AND status <> 'pending'
        RETURNING id::text AS id
      )
      SELECT id, pg_notify(${wakeChannel(queue)}, 'wake') FROM requeued
    `
    return (yield* decodeIds(rows)).map((row) => row.id)
  })

/**
 * Gives up pending jobs at once with `reason` (what a retry cannot mend, e.g. the recipient was
 * removed): `where` picks them by one payload column's value. An attempt under way when this runs
 * loses its claim, so its outcome is not recorded over this one. Answers how many were given up.
 */
export const giveUpPending = <A, I extends Readonly<Record<string, unknown>>>(
  queue: QueueTable<A, I>,
  where: { readonly column: Extract<keyof I, string>; readonly value: string },
  reason: string
): Effect.Effect<number, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (!queue.payloadColumns.includes(where.column)) {
      return yield* Effect.dieMessage(`giveUpPending ${queue.table}: ${where.column} is not a payload column`)
    }
    const sql = yield* SqlClient.SqlClient
    const erase = sql.literal(queue.eraseWhenFinished.map((column) => `, ${column} = NULL`).join(""))
    const rows = yield* sql`
      UPDATE ${sql(queue.table)} SET status = ${GAVE_UP}, last_error = ${reason}, next_attempt_at = NULL,
        claimed_until = NULL, claim_token = NULL${erase}
      WHERE status = 'pending' AND ${sql(where.column)} = ${where.value}
      RETURNING 1
    `
    return rows.length
  })
