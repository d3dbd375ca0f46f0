import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { Array as Arr, Effect, Schema } from "effect"
import { GAVE_UP, type QueueTable } from "./QueueTable.ts"

/** A job a worker has claimed: its payload and how many attempts it had before this one. */
export interface ClaimedJob<A> {
  readonly id: string
  readonly attempts: number
  readonly payload: A
}

/** Changes to a claimed row apply only while this worker's claim is the current one. */
export interface ClaimRef {
  readonly id: string
  readonly token: string
}

const ClaimedState = Schema.Struct({ id: Schema.String, attempts: Schema.Number })
const decodeClaimedStates = rowsDecoder(ClaimedState)

/**
 * The SQL of one queue's table. Times are passed in (from `Clock`), never taken from `now()`.
 * `'pending'` is written into the text, not passed, so the due index (`WHERE status = 'pending'`)
 * serves the claim also when the statement is kept prepared.
 */
export const makeQueueRows = <A, I extends Readonly<Record<string, unknown>>>(
  sql: SqlClient.SqlClient,
  queue: QueueTable<A, I>
) => {
  const table = sql(queue.table)
  const payloadColumns = sql.literal(queue.payloadColumns.map((column) => `queued.${column}`).join(", "))
  const doneAt = sql(queue.doneAtColumn)
  const erase = sql.literal(queue.eraseWhenFinished.map((column) => `, ${column} = NULL`).join(""))
  // Rows that do not match the payload are a broken database contract, hence a defect.
  const decodePayloads = rowsDecoder(queue.payload)

  /**
   * Claims up to `limit` due rows whose earlier claim (if any) has expired, in one statement:
   * `FOR UPDATE SKIP LOCKED` keeps concurrent workers off each other's rows.
   */
  const claimDue = (claim: {
    readonly now: Date
    readonly claimedUntil: Date
    readonly token: string
    readonly limit: number
  }): Effect.Effect<ReadonlyArray<ClaimedJob<A>>, SqlError> =>
    sql`
      UPDATE ${table} AS queued
      SET claimed_until = ${claim.claimedUntil}, claim_token = ${claim.token}
      FROM (
        SELECT id FROM ${table}
        WHERE status = 'pending' AND next_attempt_at <= ${claim.now}
          AND (claimed_until IS NULL OR claimed_until <= ${claim.now})
        ORDER BY next_attempt_at, created_at
        LIMIT ${claim.limit}
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE queued.id = due.id
      RETURNING queued.id::text AS id, queued.attempts, ${payloadColumns}
    `.pipe(
      Effect.flatMap((rows) =>
        Effect.zipWith(
          decodeClaimedStates(rows),
          decodePayloads(rows),
          (states, payloads) => Arr.zipWith(states, payloads, (state, payload) => ({ ...state, payload }))
        )
      )
    )

  /** Records the jobs of one claim that succeeded, in one statement. */
  const markDone = (done: {
    readonly ids: ReadonlyArray<string>
    readonly token: string
    readonly now: Date
  }): Effect.Effect<void, SqlError> =>
    done.ids.length === 0 ? Effect.void : Effect.asVoid(sql`
      UPDATE ${table} SET
        status = ${queue.doneStatus}, attempts = attempts + 1, ${doneAt} = ${done.now},
        next_attempt_at = NULL, claimed_until = NULL, claim_token = NULL, last_error = NULL${erase}
      WHERE id IN ${sql.in(done.ids)} AND claim_token = ${done.token}
    `)

  const scheduleRetry = (
    row: ClaimRef & { readonly nextAttemptAt: Date; readonly error: string }
  ): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`
      UPDATE ${table} SET
        attempts = attempts + 1, next_attempt_at = ${row.nextAttemptAt}, last_error = ${row.error},
        claimed_until = NULL, claim_token = NULL
      WHERE id = ${row.id} AND claim_token = ${row.token}
    `)

  const markGaveUp = (row: ClaimRef & { readonly error: string }): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`
      UPDATE ${table} SET
        status = ${GAVE_UP}, attempts = attempts + 1, last_error = ${row.error},
        next_attempt_at = NULL, claimed_until = NULL, claim_token = NULL${erase}
      WHERE id = ${row.id} AND claim_token = ${row.token}
    `)

  /** Not attempted after all: due again at `until`, its attempts unchanged. */
  const postpone = (row: ClaimRef & { readonly until: Date; readonly reason: string }): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`
      UPDATE ${table} SET next_attempt_at = ${row.until}, last_error = ${row.reason}, claimed_until = NULL, claim_token = NULL
      WHERE id = ${row.id} AND claim_token = ${row.token}
    `)

  return { claimDue, markDone, scheduleRetry, markGaveUp, postpone } as const
}
