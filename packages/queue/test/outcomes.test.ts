import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schedule, TestClock } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { postpone } from "../src/Postponed.ts"
import { makeQueueWorker } from "../src/QueueWorker.ts"
import { giveUpPending, requeue } from "../src/requeue.ts"
import { freshDatabase, JobFailed, KeptJobs, keptRows, TestJobs } from "./support/testJobs.ts"

const failing = (reason: string) => Effect.fail(new JobFailed({ reason }))

describe("queue outcomes beyond done and retry", () => {
  it.effect("retryAt reads the job: each retry at the time it answers, given up when it answers none", () =>
    Effect.gen(function*() {
      yield* enqueue(KeptJobs, { name: "a", group_key: "g" })
      const worker = yield* makeQueueWorker(KeptJobs, {
        handle: () => failing("down"),
        describeFailure: (error) => error.reason,
        handlerName: "the test handler",
        // Retries 5 s after each failure, while the failure is before 12 s.
        retryAt: (job, failedAt) =>
          failedAt.getTime() < 12_000 && job.payload.name === "a" ? Option.some(new Date(failedAt.getTime() + 5_000)) : Option.none()
      })
      expect(yield* worker.runDue).toBe(1)
      expect(yield* keptRows).toMatchObject([{ status: "pending", attempts: 1, next_attempt_ms: 5_000 }])
      yield* TestClock.adjust("5 seconds")
      yield* worker.runDue
      yield* TestClock.adjust("5 seconds")
      yield* worker.runDue
      expect(yield* keptRows).toMatchObject([{ status: "pending", attempts: 3, next_attempt_ms: 15_000 }])
      yield* TestClock.adjust("5 seconds")
      yield* worker.runDue
      expect(yield* keptRows).toMatchObject([{ status: "failed", attempts: 4, next_attempt_ms: null, last_error: "down" }])
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("a permanent failure gives up at once; a postponed job stays pending without counting an attempt", () =>
    Effect.gen(function*() {
      yield* enqueue(KeptJobs, { name: "gone", group_key: "g" })
      yield* enqueue(KeptJobs, { name: "paused", group_key: "g" })
      const worker = yield* makeQueueWorker(KeptJobs, {
        handle: (job) =>
          job.payload.name === "gone" ? failing("the recipient is gone") : Effect.succeed(postpone(new Date(60_000), "paused")),
        describeFailure: (error) => error.reason,
        isPermanent: (error) => error.reason === "the recipient is gone",
        handlerName: "the test handler",
        retrySchedule: Schedule.spaced("1 second")
      })
      expect(yield* worker.runDue).toBe(2)
      expect(yield* keptRows).toEqual([
        { name: "gone", status: "failed", attempts: 1, next_attempt_ms: null, last_error: "the recipient is gone" },
        { name: "paused", status: "pending", attempts: 0, next_attempt_ms: 60_000, last_error: "paused" }
      ])
      yield* TestClock.adjust("59 seconds")
      expect(yield* worker.runDue).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(yield* worker.runDue).toBe(1)
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("requeue makes finished jobs pending again with their ids and attempts; giveUpPending ends pending ones by a column", () =>
    Effect.gen(function*() {
      const done = yield* enqueue(KeptJobs, { name: "done", group_key: "g" })
      const pending = yield* enqueue(KeptJobs, { name: "pending", group_key: "g" })
      yield* enqueue(KeptJobs, { name: "other", group_key: "h" })
      const worker = yield* makeQueueWorker(KeptJobs, {
        handle: (job) => job.payload.name === "done" ? Effect.void : failing("refused"),
        describeFailure: (error) => error.reason,
        handlerName: "the test handler",
        retrySchedule: Schedule.spaced("1 hour")
      })
      yield* worker.runDue
      yield* TestClock.adjust("1 minute")
      expect(yield* requeue(KeptJobs, [done, pending, "not-a-uuid"], new Date(60_000))).toEqual([done])
      expect(yield* keptRows).toMatchObject([
        { name: "done", status: "pending", attempts: 1, next_attempt_ms: 60_000 },
        { name: "other", status: "pending" },
        { name: "pending", status: "pending", attempts: 1, next_attempt_ms: 3_600_000 }
      ])
      expect(yield* giveUpPending(KeptJobs, { column: "group_key", value: "g" }, "removed")).toBe(2)
      expect(yield* keptRows).toMatchObject([
        { name: "done", status: "failed", last_error: "removed", next_attempt_ms: null },
        { name: "other", status: "pending" },
        { name: "pending", status: "failed", last_error: "removed" }
      ])
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("a queue that erases payload columns cannot requeue", () =>
    Effect.gen(function*() {
      const id = yield* enqueue(TestJobs, { name: "x", secret: "s" })
      const exit = yield* Effect.exit(requeue(TestJobs, [id], new Date(0)))
      expect(exit._tag).toBe("Failure")
    }).pipe(Effect.provide(freshDatabase())))
})
