import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Deferred, Effect, Layer, Ref, Schedule, TestClock } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { type Job, makeQueueWorker, type QueueWorkerOptions } from "../src/QueueWorker.ts"
import { freshDatabase, type JobFailed, jobRows, migrations, TestJobs } from "./support/testJobs.ts"

type TestJob = typeof TestJobs.payload.Type

const options = (
  handle: (job: Job<TestJob>) => Effect.Effect<void, JobFailed>,
  batchSize: number
): QueueWorkerOptions<TestJob, JobFailed, never> => ({
  handle,
  describeFailure: (error) => error.reason,
  handlerName: "the test handler",
  retrySchedule: Schedule.spaced("1 second"),
  batchSize
})

const enqueueNamed = (names: ReadonlyArray<string>) =>
  Effect.forEach(names, (name) => enqueue(TestJobs, { name, secret: null }), { discard: true })

const names = (count: number) => Array.from({ length: count }, (_, i) => `job${i}`)

describe("queue claims", () => {
  it.scopedLive("concurrent passes of workers in two processes run each job exactly once", () =>
    Effect.gen(function*() {
      const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
      const handled = yield* Ref.make<ReadonlyArray<string>>([])
      // Each attempt takes a little real time, so that the passes' claims overlap in time.
      const handle = (job: Job<TestJob>) =>
        Effect.zipRight(Effect.sleep("5 millis"), Ref.update(handled, (names) => [...names, job.payload.name]))
      const startProcess = Effect.flatMap(Layer.build(openAsProcess), (context) =>
        makeQueueWorker(TestJobs, options(handle, 3)).pipe(Effect.provide(context)))
      const first = yield* startProcess
      const second = yield* startProcess
      yield* Effect.provide(enqueueNamed(names(40)), yield* Layer.build(openAsProcess))
      const ran = yield* Effect.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).runDue),
        { concurrency: "unbounded" }
      )
      expect(ran.reduce((sum, count) => sum + count, 0)).toBe(40)
      expect([...(yield* Ref.get(handled))].sort()).toEqual(names(40).sort())
    }))

  it.live("a job claimed by one worker is not claimed by another while its lease lasts", () =>
    Effect.gen(function*() {
      yield* enqueueNamed(names(5))
      const release = yield* Deferred.make<void>()
      const started = yield* Ref.make<ReadonlyArray<string>>([])
      const blocked = yield* makeQueueWorker(
        TestJobs,
        options((job) => Effect.zipRight(Ref.update(started, (names) => [...names, job.payload.name]), Deferred.await(release)), 3)
      )
      const other = yield* Ref.make<ReadonlyArray<string>>([])
      const free = yield* makeQueueWorker(
        TestJobs,
        options((job) => Ref.update(other, (names) => [...names, job.payload.name]), 10)
      )
      const blockedPass = yield* Effect.fork(blocked.runDue)
      yield* Ref.get(started).pipe(Effect.repeat({ until: (names) => names.length === 3, schedule: Schedule.spaced("5 millis") }))
      expect(yield* free.runDue).toBe(2)
      expect(yield* free.runDue).toBe(0)
      const claimedByBlocked = yield* Ref.get(started)
      const claimedByFree = yield* Ref.get(other)
      expect(claimedByBlocked.filter((name) => claimedByFree.includes(name))).toEqual([])
      expect([...claimedByBlocked, ...claimedByFree].sort()).toEqual(names(5))
      yield* Deferred.succeed(release, undefined)
      expect(yield* Effect.fromFiber(blockedPass).pipe(Effect.orDie)).toBe(3)
      expect((yield* jobRows).map((row) => row.status)).toEqual(["done", "done", "done", "done", "done"])
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("a crashed worker's job is claimed again once its lease expires; the late worker's outcome is ignored", () =>
    Effect.gen(function*() {
      yield* enqueue(TestJobs, { name: "only", secret: "s3cret" })
      const stuck = yield* Deferred.make<void>()
      const claimed = yield* Deferred.make<void>()
      // The first worker claims the job at 0 and then hangs, as a worker in a process that died.
      const crashed = yield* makeQueueWorker(TestJobs, {
        ...options(() => Effect.zipRight(Deferred.succeed(claimed, undefined), Deferred.await(stuck)), 1),
        lease: "60 seconds",
        attemptTimeout: "50 seconds"
      })
      const late = yield* Effect.fork(crashed.runDue)
      yield* Deferred.await(claimed)
      const ran = yield* Ref.make(0)
      const survivor = yield* makeQueueWorker(TestJobs, options(() => Ref.update(ran, (n) => n + 1), 1))
      expect(yield* survivor.runDue).toBe(0)
      yield* TestClock.adjust("59999 millis")
      expect(yield* survivor.runDue).toBe(0)
      yield* TestClock.adjust("1 millis")
      expect(yield* survivor.runDue).toBe(1)
      expect(yield* Ref.get(ran)).toBe(1)
      expect(yield* jobRows).toMatchObject([{ status: "done", attempts: 1, done_ms: 60_000, secret: null, claimed: false }])
      // The hung attempt ends after all; its claim is no longer the current one, so it changes nothing.
      yield* Deferred.succeed(stuck, undefined)
      yield* Effect.fromFiber(late).pipe(Effect.orDie)
      expect(yield* jobRows).toMatchObject([{ status: "done", attempts: 1, done_ms: 60_000 }])
    }).pipe(Effect.provide(freshDatabase())))
})
