import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Ref, Schedule, TestClock } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { makeQueueWorker, type QueueWorker } from "../src/QueueWorker.ts"
import { delayBeforeRetry } from "../src/retrySchedule.ts"
import { freshDatabase, JobFailed, jobRows, TestJobs } from "./support/testJobs.ts"

/** Moves the TestClock to `atMillis` (from 0) and runs one pass there. */
const passAt = (worker: QueueWorker, atMillis: number) =>
  Effect.gen(function*() {
    const now = yield* TestClock.currentTimeMillis
    yield* TestClock.adjust(`${atMillis - now} millis`)
    return yield* worker.runDue
  })

/** A worker whose handler fails its first `failures` attempts, then succeeds. */
const workerFailing = (failures: number, retrySchedule: Schedule.Schedule<unknown>) =>
  Effect.gen(function*() {
    const attempts = yield* Ref.make(0)
    const worker = yield* makeQueueWorker(TestJobs, {
      handle: (job) =>
        Effect.flatMap(Ref.updateAndGet(attempts, (n) => n + 1), (n) =>
          n <= failures ? Effect.fail(new JobFailed({ reason: `refused attempt ${job.attempt}` })) : Effect.void),
      describeFailure: (error) => error.reason,
      handlerName: "the test handler",
      retrySchedule
    })
    return { worker, attempts: Ref.get(attempts) }
  })

const webhookWaits = Schedule.fromDelays("10 seconds", "30 seconds", "1 minute", "5 minutes", "15 minutes", "30 minutes")
  .pipe(Schedule.andThen(Schedule.spaced("1 hour")))

/**
 * Spec 1's webhook retries: 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, then every hour; no attempt
 * later than 72 hours after the first (`Schedule.upTo` would allow one more retry past it).
 */
const webhookSchedule = Schedule.delays(webhookWaits).pipe(
  Schedule.intersect(Schedule.elapsed),
  Schedule.whileOutput(([wait, elapsed]) => Duration.lessThanOrEqualTo(Duration.sum(elapsed, wait), Duration.hours(72)))
)

describe("queue retries", () => {
  it.effect("a failed job is retried after the schedule's waits, and done on the attempt that succeeds", () =>
    Effect.gen(function*() {
      yield* enqueue(TestJobs, { name: "webhook", secret: "s3cret" })
      const { attempts, worker } = yield* workerFailing(4, webhookSchedule)
      expect(yield* passAt(worker, 0)).toBe(1)
      expect(yield* jobRows).toMatchObject([{
        status: "pending",
        attempts: 1,
        next_attempt_ms: 10_000,
        secret: "s3cret",
        claimed: false,
        last_error: "refused attempt 1"
      }])
      expect(yield* passAt(worker, 9_999)).toBe(0)
      expect(yield* passAt(worker, 10_000)).toBe(1)
      expect(yield* jobRows).toMatchObject([{ attempts: 2, next_attempt_ms: 40_000, last_error: "refused attempt 2" }])
      expect(yield* passAt(worker, 39_999)).toBe(0)
      expect(yield* passAt(worker, 40_000)).toBe(1)
      expect(yield* jobRows).toMatchObject([{ attempts: 3, next_attempt_ms: 100_000 }])
      expect(yield* passAt(worker, 100_000)).toBe(1)
      expect(yield* jobRows).toMatchObject([{ attempts: 4, next_attempt_ms: 400_000 }])
      expect(yield* passAt(worker, 399_999)).toBe(0)
      expect(yield* passAt(worker, 400_000)).toBe(1)
      expect(yield* attempts).toBe(5)
      expect(yield* jobRows).toEqual([{
        name: "webhook",
        secret: null,
        status: "done",
        attempts: 5,
        next_attempt_ms: null,
        done_ms: 400_000,
        claimed: false,
        last_error: null
      }])
      expect(yield* passAt(worker, 10_000_000)).toBe(0)
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("gives up after the attempts the schedule allows: status failed, the last error kept, secrets erased", () =>
    Effect.gen(function*() {
      yield* enqueue(TestJobs, { name: "doomed", secret: "s3cret" })
      const { attempts, worker } = yield* workerFailing(100, Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(2))))
      expect(yield* passAt(worker, 0)).toBe(1)
      expect(yield* passAt(worker, 1_000)).toBe(1)
      expect(yield* jobRows).toMatchObject([{ status: "pending", attempts: 2, next_attempt_ms: 2_000 }])
      expect(yield* passAt(worker, 2_000)).toBe(1)
      expect(yield* jobRows).toEqual([{
        name: "doomed",
        secret: null,
        status: "failed",
        attempts: 3,
        next_attempt_ms: null,
        done_ms: null,
        claimed: false,
        last_error: "refused attempt 3"
      }])
      expect(yield* passAt(worker, 1_000_000)).toBe(0)
      expect(yield* attempts).toBe(3)
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("an attempt that does not end within the attempt timeout is a failure, retried", () =>
    Effect.gen(function*() {
      yield* enqueue(TestJobs, { name: "slow", secret: null })
      const worker = yield* makeQueueWorker(TestJobs, {
        handle: () => Effect.never,
        describeFailure: (error: JobFailed) => error.reason,
        handlerName: "the test handler",
        retrySchedule: Schedule.spaced("1 second"),
        attemptTimeout: "100 millis"
      })
      expect(yield* worker.runDue).toBe(1)
      expect(yield* jobRows).toMatchObject([{
        status: "pending",
        attempts: 1,
        next_attempt_ms: 1_000,
        claimed: false,
        last_error: "no answer within 100ms"
      }])
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("a defect in the handler is recorded without its details and retried", () =>
    Effect.gen(function*() {
      yield* enqueue(TestJobs, { name: "broken", secret: "s3cret" })
      const worker = yield* makeQueueWorker(TestJobs, {
        handle: () => Effect.dieMessage("internal detail with s3cret"),
        describeFailure: (error: JobFailed) => error.reason,
        handlerName: "the test handler",
        retrySchedule: Schedule.spaced("1 second")
      })
      expect(yield* worker.runDue).toBe(1)
      expect(yield* jobRows).toMatchObject([{
        status: "pending",
        attempts: 1,
        last_error: "unexpected failure in the test handler"
      }])
    }).pipe(Effect.provide(freshDatabase())))
})

describe("delayBeforeRetry", () => {
  it.effect("steps the schedule once per failed attempt and ends with it", () =>
    Effect.gen(function*() {
      const waits = yield* Effect.forEach([1, 2, 3, 6, 7, 8], (failed) => delayBeforeRetry(webhookSchedule, failed))
      expect(waits.map((wait) => Option.map(wait, Duration.toSeconds))).toEqual(
        [10, 30, 60, 1_800, 3_600, 3_600].map(Option.some)
      )
      // Spec 1: attempts stop 72 hours after the event, about 78 attempts.
      let attempts = 1
      while (Option.isSome(yield* delayBeforeRetry(webhookSchedule, attempts))) attempts++
      expect(attempts).toBe(78)
      expect(yield* delayBeforeRetry(Schedule.recurs(0), 1)).toEqual(Option.none())
    }))
})
