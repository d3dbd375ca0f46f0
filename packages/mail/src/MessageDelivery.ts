import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { makeQueueWorker, type QueueWorker } from "@platform/queue"
import { Context, Duration, Effect, Layer } from "effect"
import { MessageTransport } from "./MessageTransport.ts"
import { OutgoingMessages } from "./outgoingMessages.ts"
import { DEFAULT_MAX_ATTEMPTS, mailRetrySchedule } from "./retryBackoff.ts"

/** A claim lasts this long; a crashed worker's rows are taken over once it expires. */
export const CLAIM_DURATION: Duration.Duration = Duration.seconds(60)

/** Each send must finish well inside the claim, so that a row is not sent twice by two live workers. */
export const SEND_TIMEOUT: Duration.Duration = Duration.seconds(30)

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

const isPositiveInteger = (value: number) => Number.isSafeInteger(value) && value > 0

/** The outbox's worker: sends each message through MessageTransport, retrying on the mail schedule. */
const makeDeliveryWorker = (
  options: MessageDeliveryOptions
): Effect.Effect<QueueWorker, never, SqlClient.SqlClient | MessageTransport> =>
  Effect.gen(function*() {
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
    if (!isPositiveInteger(maxAttempts)) {
      return yield* Effect.dieMessage("MessageDelivery: maxAttempts must be a positive integer")
    }
    const transport = yield* MessageTransport
    return yield* makeQueueWorker(OutgoingMessages, {
      handle: (job) => transport.send(job.payload),
      describeFailure: (error) => error.message,
      handlerName: "the message transport",
      retrySchedule: mailRetrySchedule(maxAttempts),
      lease: CLAIM_DURATION,
      attemptTimeout: SEND_TIMEOUT,
      batchSize: options.batchSize,
      pollInterval: options.pollInterval,
      annotate: (job) => ({ channel: job.payload.channel })
    })
  })

const serviceOf = (worker: QueueWorker): MessageDeliveryService => ({ deliverDue: worker.runDue })

export const makeMessageDelivery = (
  options: MessageDeliveryOptions = {}
): Effect.Effect<MessageDeliveryService, never, SqlClient.SqlClient | MessageTransport> =>
  Effect.map(makeDeliveryWorker(options), serviceOf)

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
      Effect.tap(makeDeliveryWorker(options), (worker) => Effect.forkScoped(worker.runForever)).pipe(
        Effect.map(serviceOf)
      )
    )

  /** The service without a worker: passes run only when `deliverDue` is called (tests, operator commands). */
  static readonly layerWithoutWorker = (
    options: MessageDeliveryOptions = {}
  ): Layer.Layer<MessageDelivery, never, SqlClient.SqlClient | MessageTransport> =>
    Layer.effect(MessageDelivery, makeMessageDelivery(options))
}
