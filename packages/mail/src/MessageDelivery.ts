import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Duration, Effect, Layer } from "effect"
import { makeDeliveryPass } from "./deliveryPass.ts"
import type { MessageTransport } from "./MessageTransport.ts"
import { sleepInRealTime } from "./realTime.ts"
import { DEFAULT_MAX_ATTEMPTS } from "./retryBackoff.ts"

export interface MessageDeliveryOptions {
  /** How long the worker waits after a pass that found less than a full batch (default 200 ms). */
  readonly pollInterval?: Duration.DurationInput
  /** Attempts before a message is marked failed (default 8, the spec's limit). */
  readonly maxAttempts?: number
  /** Rows claimed and sent concurrently per pass (default 10). */
  readonly batchSize?: number
}

export interface MessageDeliveryService {
  /** One pass: sends the messages due now (per Clock) and records the outcomes; returns how many it handled. */
  readonly deliverDue: Effect.Effect<number, SqlError>
}

const DEFAULT_POLL_INTERVAL = Duration.millis(200)
const DEFAULT_BATCH_SIZE = 10
/** After a failed pass (database unreachable) the worker waits at least this long before the next. */
const PAUSE_AFTER_FAILED_PASS = Duration.seconds(1)

const isPositiveInteger = (value: number) => Number.isSafeInteger(value) && value > 0

export const makeMessageDelivery = (
  options: MessageDeliveryOptions = {}
): Effect.Effect<MessageDeliveryService, never, SqlClient.SqlClient | MessageTransport> =>
  Effect.gen(function*() {
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
    if (!isPositiveInteger(maxAttempts) || !isPositiveInteger(batchSize)) {
      return yield* Effect.dieMessage("MessageDelivery: maxAttempts and batchSize must be positive integers")
    }
    return { deliverDue: yield* makeDeliveryPass({ maxAttempts, batchSize }) }
  })

/**
 * Runs passes forever: straight again after a full batch, otherwise after the
 * poll interval. A failed pass is logged and retried after a pause.
 */
const runWorker = (delivery: MessageDeliveryService, options: MessageDeliveryOptions): Effect.Effect<never> => {
  const pollInterval = Duration.decode(options.pollInterval ?? DEFAULT_POLL_INTERVAL)
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const pass = delivery.deliverDue.pipe(
    Effect.flatMap((handled) => handled < batchSize ? sleepInRealTime(pollInterval) : Effect.void),
    Effect.catchAllCause((cause) =>
      Effect.zipRight(
        Effect.logError("message delivery pass failed", cause),
        sleepInRealTime(Duration.max(pollInterval, PAUSE_AFTER_FAILED_PASS))
      )
    )
  )
  return Effect.forever(pass)
}

/** Sends the outbox's messages through MessageTransport, from any number of processes on one database. */
export class MessageDelivery
  extends Context.Tag("@platform/mail/MessageDelivery")<MessageDelivery, MessageDeliveryService>()
{
  /** The service plus its worker fiber, which stops when the layer's scope closes. */
  static readonly layer = (
    options: MessageDeliveryOptions = {}
  ): Layer.Layer<MessageDelivery, never, SqlClient.SqlClient | MessageTransport> =>
    Layer.scoped(
      MessageDelivery,
      Effect.tap(makeMessageDelivery(options), (delivery) => Effect.forkScoped(runWorker(delivery, options)))
    )

  /** The service without a worker: passes run only when `deliverDue` is called (tests, operator commands). */
  static readonly layerWithoutWorker = (
    options: MessageDeliveryOptions = {}
  ): Layer.Layer<MessageDelivery, never, SqlClient.SqlClient | MessageTransport> =>
    Layer.effect(MessageDelivery, makeMessageDelivery(options))
}
