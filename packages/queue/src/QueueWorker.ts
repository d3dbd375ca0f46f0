import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Clock, Duration, Effect, Exit, Fiber, Layer, Option, type Schedule } from "effect"
import { isPostponed, type Postponed } from "./Postponed.ts"
import { randomUUID } from "node:crypto"
import { type ClaimedJob, makeQueueRows } from "./queueRows.ts"
import type { QueueTable } from "./QueueTable.ts"
import { sleepInRealTime, timeoutInRealTime } from "./realTime.ts"
import { delayBeforeRetry } from "./retrySchedule.ts"
import { makeWakeableWait, wakeChannel } from "./wakeups.ts"

/** One attempt at a job: its id, which attempt this is (1 for the first) and its payload. */
export interface Job<A> {
  readonly id: string
  readonly attempt: number
  readonly payload: A
}

/**
 * When a failed job is tried again: either a `Schedule` stepped once per failed attempt (see
 * `delayBeforeRetry`), or `retryAt`, which reads the job itself (e.g. a window measured from the
 * time of the event the job reports) and answers the next attempt's time, or none to give up.
 */
export type RetryPolicy<A> =
  | { readonly retrySchedule: Schedule.Schedule<unknown>; readonly retryAt?: undefined }
  | {
    readonly retryAt: (job: Job<A>, failedAt: Date) => Option.Option<Date>
    readonly retrySchedule?: undefined
  }

export type QueueWorkerOptions<A, E, R> = QueueWorkerSettings<A, E, R> & RetryPolicy<A>

export interface QueueWorkerSettings<A, E, R> {
  /**
   * Does one attempt at a job. A failure is retried per the retry policy; once it ends, the job is
   * given up. Answering `postpone(until, reason)` keeps the job pending until then without counting
   * an attempt (the job cannot be done yet, e.g. its recipient is paused).
   */
  readonly handle: (job: Job<A>) => Effect.Effect<void | Postponed, E, R>
  /** A failure as logged and stored in `last_error`: what went wrong, never a secret of the job. */
  readonly describeFailure: (error: E) => string
  /** Failures that no retry can mend (e.g. the recipient is gone): the job is given up at once. */
  readonly isPermanent?: ((error: E) => boolean) | undefined
  /** What does the jobs, for the log and `last_error` of an unexpected failure, e.g. `the message transport`. */
  readonly handlerName: string
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

const isPermanentFailure = <E>(cause: Cause.Cause<AttemptFailure<E>>, isPermanent: ((error: E) => boolean) | undefined) =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => false,
    onSome: (failure) => failure._tag === "Failed" && isPermanent !== undefined && isPermanent(failure.error)
  })

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
        const now = yield* Clock.currentTimeMillis
        const next = isPermanentFailure(cause, options.isPermanent)
          ? Option.none<Date>()
          : options.retryAt !== undefined
          ? options.retryAt(job, new Date(now))
          : Option.map(yield* delayBeforeRetry(options.retrySchedule, job.attempt), (delay) =>
            new Date(now + Duration.toMillis(delay)))
        if (Option.isNone(next)) {
          yield* rows.markGaveUp({ id: job.id, token, error })
          yield* Effect.logWarning("gave up a queued job").pipe(Effect.annotateLogs(annotations))
          return
        }
        yield* rows.scheduleRetry({ id: job.id, token, nextAttemptAt: next.value, error })
        yield* Effect.logWarning("a queued job failed; it will be retried").pipe(Effect.annotateLogs(annotations))
      })

    /**
     * Uninterruptible once started, so that shutting down finishes and records the attempts
     * under way. The handler runs in a fiber of its own that only its timeout interrupts, so
     * stopping the worker waits for it (at most the attempt timeout) instead of cutting it short.
     * A failure or a postponement is recorded here; a success is answered `true`, and the pass
     * records its successes together.
     */
    const attempt = (claimed: ClaimedJob<A>, token: string): Effect.Effect<boolean, SqlError> =>
      Effect.uninterruptible(Effect.gen(function*() {
        const job: Job<A> = { id: claimed.id, attempt: claimed.attempts + 1, payload: claimed.payload }
        const outcome = yield* options.handle(job).pipe(
          Effect.mapError((error): AttemptFailure<E> => ({ _tag: "Failed", error })),
          Effect.provide(context),
          timeoutInRealTime(attemptTimeout, (): AttemptFailure<E> => ({ _tag: "TimedOut" })),
          Effect.forkDaemon,
          Effect.flatMap(Fiber.await)
        )
        if (Exit.isSuccess(outcome) && isPostponed(outcome.value)) {
          yield* rows.postpone({ id: job.id, token, until: outcome.value.until, reason: outcome.value.reason })
          return false
        }
        if (Exit.isSuccess(outcome)) return true
        yield* recordFailure(job, token, outcome.cause)
        return false
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
      // The pass records its successes in one statement, and a shutdown waits for it; a crash before it leaves
      // them claimed, and they run again once the lease ends (at least once, as after a crash mid-attempt).
      yield* Effect.uninterruptible(Effect.gen(function*() {
        const succeeded = yield* Effect.forEach(claimed, (job) => attempt(job, token), { concurrency: batchSize })
        yield* rows.markDone({
          ids: claimed.filter((_, index) => succeeded[index]).map((job) => job.id),
          token,
          now: new Date(yield* Clock.currentTimeMillis)
        })
      }))
      return claimed.length
    })

    const runForever: Effect.Effect<never> = Effect.scoped(Effect.gen(function*() {
      const waitForWork = yield* makeWakeableWait(wakeChannel(queue), pollInterval)
      return yield* Effect.forever(
        runDue.pipe(
          Effect.flatMap((ran) => ran < batchSize ? waitForWork : Effect.void),
          Effect.catchAllCause((cause) =>
            Effect.zipRight(
              Effect.logError(`a pass over the queue ${queue.table} failed`, cause),
              sleepInRealTime(Duration.max(pollInterval, PAUSE_AFTER_FAILED_PASS))
            )
          )
        )
      )
    }))

    return { runDue, runForever }
  })

/** A worker whose fiber runs for as long as the layer lives and stops when its scope closes. */
export const queueWorkerLayer = <A, I extends Readonly<Record<string, unknown>>, E, R>(
  queue: QueueTable<A, I>,
  options: QueueWorkerOptions<A, E, R>
): Layer.Layer<never, never, SqlClient.SqlClient | R> =>
  Layer.scopedDiscard(Effect.flatMap(makeQueueWorker(queue, options), (worker) => Effect.forkScoped(worker.runForever)))
