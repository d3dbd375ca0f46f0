import type { SqlClient } from "@effect/sql"
import { checkOutboundUrl, type LookupAll, type OutboundPolicy, publicOnlyLookup, systemLookupAll } from "@platform/outbound"
import { type Job, makeQueueWorker, type Postponed, postpone, type QueueWorker } from "@platform/queue"
import { Clock, Duration, Effect, Either, Layer, Option } from "effect"
import { asPlainDeliveries, type DeliveriesTable, type KeyedDeliveriesTable } from "./deliveriesTable.ts"
import type { DeliveryJob, KeyedDeliveryJob } from "./DeliveryJob.ts"
import { coalesced } from "./coalesced.ts"
import { DeliveryFailed, postWebhook } from "./postWebhook.ts"
import { retryWithin } from "./retryWindow.ts"
import type { WebhookSigning } from "./signature.ts"
import type { WebhookRoute } from "./WebhookRoute.ts"

/** The names of the headers each attempt carries besides Content-Type and User-Agent. */
export interface WebhookHeaderNames {
  readonly eventId: string
  readonly eventType: string
  /** The delivery's id: one per event and receiver, the same on every retry and replay. */
  readonly deliveryId: string
  /** Unix seconds when the attempt was signed. */
  readonly timestamp: string
  readonly signature: string
  /** The version of the receiver's secret the signature is made with (keyed deliveries only). */
  readonly keyVersion?: string | undefined
}

/** What one attempt came to, for a service that keeps each attempt's history. */
export interface AttemptRecord {
  readonly deliveryId: string
  readonly attempt: number
  readonly keyVersion: number | null
  /** The receiver's HTTP status, when it answered. */
  readonly status: number | null
  /** Why it failed; null when delivered. */
  readonly error: string | null
}

/** Everything a service decides about its webhooks. */
export interface WebhookDeliveryOptions<R> {
  /** A keyed table signs each delivery with the secret version it names (see KeyedDeliveryJob). */
  readonly deliveries: DeliveriesTable | KeyedDeliveriesTable
  readonly headers: WebhookHeaderNames
  readonly userAgent: string
  readonly signing: WebhookSigning
  /** Waits after failed attempts 1, 2, …; the last one repeats. */
  readonly retryWaits: ReadonlyArray<Duration.DurationInput>
  /** Attempts stop this long after the event (then the delivery is failed, and replayable). */
  readonly retryWindow: Duration.DurationInput
  /**
   * Instead of the window: when the next attempt is after the job's `attempt`-th failure, or none to
   * give up (a bounded number of attempts per cycle, as IAM has). A held delivery still ends with the window.
   */
  readonly retryAt?: ((job: Job<DeliveryJob>, failedAt: Date) => Option.Option<Date>) | undefined
  /** Called after every attempt that reached the sending stage (answered or not), e.g. to keep its history. */
  readonly onAttempt?: ((record: AttemptRecord) => Effect.Effect<void, never, R>) | undefined
  /** A 2xx must come within this much real time. */
  readonly answerTime: Duration.DurationInput
  /** How often a held delivery looks again at its receiver (default 1 minute). */
  readonly holdRecheck?: Duration.DurationInput | undefined
  /** The receiver's current target, read at each attempt. */
  readonly route: (receiver: string) => Effect.Effect<WebhookRoute, never, R>
  /** Which URLs and addresses may be called: checked on the URL, then on every address at connect time. */
  readonly policy: OutboundPolicy
  /** The resolver behind the connect-time check (tests inject names that resolve to private addresses). */
  readonly lookupAll?: LookupAll | undefined
  /** Deliveries claimed and sent concurrently per pass (default 10). */
  readonly batchSize?: number | undefined
  /** How long the worker waits after a pass that found less than a full batch (default 200 ms). */
  readonly pollInterval?: Duration.DurationInput | undefined
}

const DEFAULT_HOLD_RECHECK = Duration.minutes(1)
/** The claim outlives an attempt by far: a live worker's attempt never overlaps another's. */
const LEASE = Duration.seconds(60)
const ATTEMPT_SLACK = Duration.seconds(5)

const permanently = (reason: string) => new DeliveryFailed({ reason, permanent: true })

/**
 * The worker delivering a service's webhooks: each due delivery is routed, signed with the
 * receiver's current secret and POSTed; a 2xx within the answer time is delivered, anything else
 * (another status, a redirect, a timeout, a refused address) is retried per the waits until the
 * window after the event has passed.
 */
export const makeWebhookWorker = <R>(
  options: WebhookDeliveryOptions<R>
): Effect.Effect<QueueWorker, never, SqlClient.SqlClient | R> => {
  const answerTime = Duration.decode(options.answerTime)
  const windowMillis = Duration.toMillis(Duration.decode(options.retryWindow))
  const holdRecheck = Duration.toMillis(Duration.decode(options.holdRecheck ?? DEFAULT_HOLD_RECHECK))
  const lookup = publicOnlyLookup(options.policy, options.lookupAll ?? systemLookupAll)
  const routeOf = coalesced(options.route)

  /** The secret and its version for this delivery: a keyed one names its version, which must still be accepted. */
  const keyOf = (
    job: Job<DeliveryJob>,
    route: Extract<WebhookRoute, { _tag: "Deliver" }>
  ): Either.Either<{ readonly secret: string; readonly version: number | null }, DeliveryFailed> => {
    const version = (job.payload as Partial<KeyedDeliveryJob>).key_version
    if (version === undefined) return Either.right({ secret: route.secret, version: null })
    const secret = route.versions?.get(version)
    return secret === undefined
      ? Either.left(permanently(`key version ${version} is no longer accepted`))
      : Either.right({ secret, version })
  }

  const send = (job: Job<DeliveryJob>, route: Extract<WebhookRoute, { _tag: "Deliver" }>) =>
    Effect.gen(function*() {
      const key = keyOf(job, route)
      if (Either.isLeft(key)) return yield* key.left
      const checked = checkOutboundUrl(route.url, options.policy)
      if (Either.isLeft(checked)) return yield* new DeliveryFailed({ reason: `the URL ${checked.left}`, permanent: false })
      const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const { body, event_id, event_type } = job.payload
      const keyHeader: Record<string, string> = options.headers.keyVersion !== undefined && key.right.version !== null
        ? { [options.headers.keyVersion]: String(key.right.version) }
        : {}
      const outcome = yield* postWebhook({
        url: checked.right,
        body,
        answerTime,
        lookup,
        headers: {
          "content-type": "application/json",
          "user-agent": options.userAgent,
          [options.headers.eventId]: event_id,
          [options.headers.eventType]: event_type,
          [options.headers.deliveryId]: job.id,
          [options.headers.timestamp]: String(timestamp),
          ...keyHeader,
          [options.headers.signature]: options.signing.sign(key.right.secret, timestamp, body)
        }
      }).pipe(Effect.either)
      const status = Either.isRight(outcome) ? outcome.right : null
      const refused = status !== null && (status < 200 || status > 299)
        ? `answered HTTP ${status}${status >= 300 && status <= 399 ? " (redirects are not followed)" : ""}`
        : null
      const error = Either.isLeft(outcome) ? outcome.left.reason : refused
      if (options.onAttempt !== undefined) {
        yield* options.onAttempt({ deliveryId: job.id, attempt: job.attempt, keyVersion: key.right.version, status, error })
      }
      if (error !== null) return yield* new DeliveryFailed({ reason: error, permanent: false })
    })

  const handle = (job: Job<DeliveryJob>): Effect.Effect<void | Postponed, DeliveryFailed, R> =>
    Effect.gen(function*() {
      const route = yield* routeOf(job.payload.receiver)
      switch (route._tag) {
        case "Fail":
          return yield* permanently(route.reason)
        case "Hold": {
          const now = yield* Clock.currentTimeMillis
          const windowEnds = job.payload.event_occurred_at.getTime() + windowMillis
          if (now >= windowEnds) return yield* permanently(`${route.reason}; held until the retry window ended`)
          return postpone(new Date(Math.min(now + holdRecheck, windowEnds)), route.reason)
        }
        case "Deliver":
          return yield* send(job, route)
      }
    })

  // A keyed table's rows are DeliveryJobs with one more field, which `keyOf` reads.
  return makeQueueWorker(asPlainDeliveries(options.deliveries), {
    handle,
    describeFailure: (error) => error.reason,
    isPermanent: (error) => error.permanent,
    handlerName: "the webhook sender",
    retryAt: options.retryAt ?? retryWithin(options.retryWaits, options.retryWindow),
    lease: LEASE,
    attemptTimeout: Duration.sum(answerTime, ATTEMPT_SLACK),
    batchSize: options.batchSize,
    pollInterval: options.pollInterval,
    annotate: (job) => ({ event_id: job.payload.event_id, event_type: job.payload.event_type })
  })
}

/** The webhook worker as a fiber that lives as long as the layer. */
export const webhookWorkerLayer = <R>(options: WebhookDeliveryOptions<R>): Layer.Layer<never, never, SqlClient.SqlClient | R> =>
  Layer.scopedDiscard(Effect.flatMap(makeWebhookWorker(options), (worker) => Effect.forkScoped(worker.runForever)))
