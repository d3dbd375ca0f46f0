import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Clock, Duration, Effect, Exit, Fiber, Layer, Option, type Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { type ClaimedJob, makeQueueRows } from "./queueRows.ts"
import type { QueueTable } from "./QueueTable.ts"
import { sleepInRealTime, timeoutInRealTime } from "./realTime.ts"
import { delayBeforeRetry } from "./retrySchedule.ts"

/** One attempt at a job: its id, which attempt this is (1 for the first) and its payload. */
export interface Job<A> {
  readonly id: string
  readonly attempt: number
  readonly payload: A
}

export interface QueueWorkerOptions<A, E, R> {
  /** Does one attempt at a job. A failure is retried after the schedule's wait; once the schedule ends, the job is given up. */
  readonly handle: (job: Job<A>) => Effect.Effect<void, E, R>
  /** A failure as logged and stored in `last_error`: what went wrong, never a secret of the job. */
  readonly describeFailure: (error: E) => string
  /** What does the jobs, for the log and `last_error` of an unexpected failure, e.g. `the message transport`. */
  readonly handlerName: string
  /** The waits between attempts, and when to give up (see `delayBeforeRetry`). */
  readonly retrySchedule: Schedule.Schedule<unknown>
  /** A claim lasts this long (default 60 s): a crashed worker's jobs are taken over once it expires. */
  readonly lease?: Duration.DurationInput | undefined
  /**
   * Each attempt must end within this much real time (default 30 s), shorter than the lease,
   * so that two live workers never run one job at once.
   */
  readonly attemptTimeout?: Duration.DurationInput | undefined
  /** Jobs claimed and run concurrently per pass (default 10). */
  readonly batchSize?: number | undefined
  /** How long the worker waits after a pass that found less than a full batch (default 200 ms). */
  readonly pollInterval?: Duration.DurationInput | undefined
  /** Log annotations naming a job, never its secrets (e.g. a message's channel). */
  readonly annotate?: ((job: Job<A>) => Readonly<Record<string, unknown>>) | undefined
}

export interface QueueWorker {
  /** One pass: runs the jobs due now (per Clock) and records their outcomes; returns how many it ran. */
  readonly runDue: Effect.Effect<number, SqlError>
  /**
   * Passes forever: the next at once after a full batch, otherwise after the poll interval.
   * A failed pass (database unreachable) is logged and the next follows after a pause.
   */
  readonly runForever: Effect.Effect<never>
}

export const DEFAULT_LEASE = Duration.seconds(60)
export const DEFAULT_ATTEMPT_TIMEOUT = Duration.seconds(30)
const DEFAULT_BATCH_SIZE = 10
const DEFAULT_POLL_INTERVAL = Duration.millis(200)
/** After a failed pass the worker waits at least this long before the next. */
const PAUSE_AFTER_FAILED_PASS = Duration.seconds(1)

/** Why an attempt failed, besides a defect: the handler's typed failure, or no answer within the attempt timeout. */
type AttemptFailure<E> = { readonly _tag: "Failed"; readonly error: E } | { readonly _tag: "TimedOut" }

/**
 * A worker for `queue`, from any number of processes on one database: each pass claims the
 * due jobs for the lease, runs them concurrently and records each outcome (done, retry at
 * the schedule's next wait, or given up).
 */
export const makeQueueWorker = <A, I extends Readonly<Record<string, unknown>>, E, R>(
  queue: QueueTable<A, I>,
  options: QueueWorkerOptions<A, E, R>
): Effect.Effect<QueueWorker, never, SqlClient.SqlClient | R> =>
  Effect.gen(function*() {
    const lease = Duration.decode(options.lease ?? DEFAULT_LEASE)
    const attemptTimeout = Duration.decode(options.attemptTimeout ?? DEFAULT_ATTEMPT_TIMEOUT)
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
    const pollInterval = Duration.decode(options.pollInterval ?? DEFAULT_POLL_INTERVAL)
    if (!Number.isSafeInteger(batchSize) || batchSize <= 0) {
      return yield* Effect.dieMessage(`queue ${queue.table}: batchSize must be a positive integer`)
    }
    if (!Duration.lessThan(attemptTimeout, lease)) {
      return yield* Effect.dieMessage(`queue ${queue.table}: attemptTimeout must be shorter than the lease`)
    }
    const sql = yield* SqlClient.SqlClient
    const context = yield* Effect.context<R>()
    const rows = makeQueueRows(sql, queue)

    const failureReason = (cause: Cause.Cause<AttemptFailure<E>>): Effect.Effect<string> =>
      Option.match(Cause.failureOption(cause), {
        onSome: (failure) =>
          Effect.succeed(
            failure._tag === "Failed"
              ? options.describeFailure(failure.error)
              : `no answer within ${Duration.format(attemptTimeout)}`
          ),
        onNone: () =>
          Effect.as(
            Effect.logError(`${options.handlerName} failed unexpectedly`, cause),
            `unexpected failure in ${options.handlerName}`
          )
      })

    const recordFailure = (job: Job<A>, token: string, cause: Cause.Cause<AttemptFailure<E>>) =>
      Effect.gen(function*() {
        const error = yield* failureReason(cause)
        const annotations = { queue: queue.table, job_id: job.id, attempt: job.attempt, error, ...options.annotate?.(job) }
        const delay = yield* delayBeforeRetry(options.retrySchedule, job.attempt)
        if (Option.isNone(delay)) {
          yield* rows.markGaveUp({ id: job.id, token, error })
          yield* Effect.logWarning("gave up a queued job").pipe(Effect.annotateLogs(annotations))
          return
        }
        const now = yield* Clock.currentTimeMillis
        const nextAttemptAt = new Date(now + Duration.toMillis(delay.value))
        yield* rows.scheduleRetry({ id: job.id, token, nextAttemptAt, error })
        yield* Effect.logWarning("a queued job failed; it will be retried").pipe(Effect.annotateLogs(annotations))
      })

    /**
     * Uninterruptible once started, so that shutting down finishes and records the attempts
     * under way. The handler runs in a fiber of its own that only its timeout interrupts, so
     * stopping the worker waits for it (at most the attempt timeout) instead of cutting it short.
     */
    const attempt = (claimed: ClaimedJob<A>, token: string): Effect.Effect<void, SqlError> =>
      Effect.uninterruptible(Effect.gen(function*() {
        const job: Job<A> = { id: claimed.id, attempt: claimed.attempts + 1, payload: claimed.payload }
        const outcome = yield* options.handle(job).pipe(
          Effect.mapError((error): AttemptFailure<E> => ({ _tag: "Failed", error })),
          Effect.provide(context),
          timeoutInRealTime(attemptTimeout, (): AttemptFailure<E> => ({ _tag: "TimedOut" })),
          Effect.forkDaemon,
          Effect.flatMap(Fiber.await)
        )
        if (Exit.isSuccess(outcome)) {
          yield* rows.markDone({ id: job.id, token, now: new Date(yield* Clock.currentTimeMillis) })
        } else {
          yield* recordFailure(job, token, outcome.cause)
        }
      }))

    const runDue: Effect.Effect<number, SqlError> = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const token = randomUUID()
      const claimed = yield* rows.claimDue({
        now: new Date(now),
        claimedUntil: new Date(now + Duration.toMillis(lease)),
        token,
        limit: batchSize
      })
      yield* Effect.forEach(claimed, (job) => attempt(job, token), { concurrency: batchSize, discard: true })
      return claimed.length
    })

    const runForever: Effect.Effect<never> = Effect.forever(
      runDue.pipe(
        Effect.flatMap((ran) => ran < batchSize ? sleepInRealTime(pollInterval) : Effect.void),
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logError(`a pass over the queue ${queue.table} failed`, cause),
            sleepInRealTime(Duration.max(pollInterval, PAUSE_AFTER_FAILED_PASS))
          )
        )
      )
    )

    return { runDue, runForever }
  })

/** A worker whose fiber runs for as long as the layer lives and stops when its scope closes. */
export const queueWorkerLayer = <A, I extends Readonly<Record<string, unknown>>, E, R>(
  queue: QueueTable<A, I>,
  options: QueueWorkerOptions<A, E, R>
): Layer.Layer<never, never, SqlClient.SqlClient | R> =>
  Layer.scopedDiscard(Effect.flatMap(makeQueueWorker(queue, options), (worker) => Effect.forkScoped(worker.runForever)))
