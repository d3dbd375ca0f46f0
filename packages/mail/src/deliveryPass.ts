import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Clock, Duration, Effect, Exit, Option } from "effect"
import { randomUUID } from "node:crypto"
import { MessageTransport } from "./MessageTransport.ts"
import { MessageTransportError } from "./MessageTransportError.ts"
import { type ClaimedRow, claimDueRows, markFailed, markSent, messageOf, scheduleRetry } from "./outboxRows.ts"
import { timeoutInRealTime } from "./realTime.ts"
import { retryDelayAfter } from "./retryBackoff.ts"

/** A claim lasts this long; a crashed worker's rows are taken over once it expires. */
export const CLAIM_DURATION: Duration.Duration = Duration.seconds(60)

/** Each send must finish well inside the claim, so that a row is not sent twice by two live workers. */
export const SEND_TIMEOUT: Duration.Duration = Duration.seconds(30)

export interface DeliveryPassSettings {
  readonly maxAttempts: number
  readonly batchSize: number
}

/** The failure recorded as `last_error`: the transport's secret-free message, or a generic line for a defect. */
const failureReason = (cause: Cause.Cause<MessageTransportError>): Effect.Effect<string> =>
  Option.match(Cause.failureOption(cause), {
    onSome: (error) => Effect.succeed(error.message),
    onNone: () =>
      Effect.as(
        Effect.logError("the message transport failed unexpectedly", cause),
        "unexpected failure in the message transport"
      )
  })

/**
 * One delivery pass: claims the due rows (at most `batchSize`), sends them
 * concurrently and records each outcome. Returns how many rows it handled.
 */
export const makeDeliveryPass = (
  settings: DeliveryPassSettings
): Effect.Effect<Effect.Effect<number, SqlError>, never, SqlClient.SqlClient | MessageTransport> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transport = yield* MessageTransport

    const recordFailure = (row: ClaimedRow, token: string, cause: Cause.Cause<MessageTransportError>) =>
      Effect.gen(function*() {
        const error = yield* failureReason(cause)
        const attempt = row.attempts + 1
        const annotations = { message_id: row.id, channel: row.channel, attempt, error }
        if (attempt >= settings.maxAttempts) {
          yield* markFailed(sql, { id: row.id, token, error })
          yield* Effect.logWarning("gave up delivering a message").pipe(Effect.annotateLogs(annotations))
          return
        }
        const now = yield* Clock.currentTimeMillis
        const nextAttemptAt = new Date(now + Duration.toMillis(retryDelayAfter(attempt)))
        yield* scheduleRetry(sql, { id: row.id, token, nextAttemptAt, error })
        yield* Effect.logWarning("message delivery attempt failed; will retry").pipe(Effect.annotateLogs(annotations))
      })

    /** Uninterruptible once started, so that shutting down finishes and records the sends under way. */
    const deliver = (row: ClaimedRow, token: string): Effect.Effect<void, SqlError> =>
      Effect.uninterruptible(Effect.gen(function*() {
        const outcome = yield* transport.send(messageOf(row)).pipe(
          timeoutInRealTime(
            SEND_TIMEOUT,
            () => new MessageTransportError({ message: `no answer within ${Duration.format(SEND_TIMEOUT)}` })
          ),
          Effect.exit
        )
        if (Exit.isSuccess(outcome)) {
          yield* markSent(sql, { id: row.id, token, now: new Date(yield* Clock.currentTimeMillis) })
        } else {
          yield* recordFailure(row, token, outcome.cause)
        }
      }))

    return Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const token = randomUUID()
      const rows = yield* claimDueRows(sql, {
        now: new Date(now),
        claimedUntil: new Date(now + Duration.toMillis(CLAIM_DURATION)),
        token,
        limit: settings.batchSize
      })
      yield* Effect.forEach(rows, (row) => deliver(row, token), { concurrency: settings.batchSize, discard: true })
      return rows.length
    })
  })
