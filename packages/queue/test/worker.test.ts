import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer, Ref, Schedule } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { type Job, queueWorkerLayer } from "../src/QueueWorker.ts"
import { sleepInRealTime } from "../src/realTime.ts"
import { freshDatabase, type JobFailed, jobRows, TestJobs } from "./support/testJobs.ts"

type TestJob = typeof TestJobs.payload.Type

const workerLayer = (handle: (job: Job<TestJob>) => Effect.Effect<void, JobFailed>) =>
  queueWorkerLayer(TestJobs, {
    handle,
    describeFailure: (error) => error.reason,
    handlerName: "the test handler",
    retrySchedule: Schedule.spaced("1 second"),
    pollInterval: "10 millis"
  })

const awaitRows = (until: (rows: Effect.Effect.Success<typeof jobRows>) => boolean) =>
  jobRows.pipe(
    Effect.repeat({ until, schedule: Schedule.spaced("10 millis") }),
    Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("the jobs did not reach the expected state") }),
    Effect.orDie
  )

describe("queueWorkerLayer", () => {
  it.live("runs jobs while the layer lives and stops when its scope closes", () =>
    Effect.gen(function*() {
      const handled = yield* Ref.make<ReadonlyArray<string>>([])
      const worker = workerLayer((job) => Ref.update(handled, (names) => [...names, job.payload.name]))
      yield* Effect.scoped(
        Effect.zipRight(
          Layer.build(worker),
          Effect.zipRight(enqueue(TestJobs, { name: "before", secret: null }), awaitRows((rows) => rows[0]?.status === "done"))
        )
      )
      yield* enqueue(TestJobs, { name: "after", secret: null })
      yield* sleepInRealTime("200 millis")
      expect(yield* Ref.get(handled)).toEqual(["before"])
      expect((yield* jobRows).map((row) => row.status)).toEqual(["done", "pending"])
    }).pipe(Effect.provide(freshDatabase())))

  it.live("closing the scope waits for the attempt under way and records it", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const worker = workerLayer(() => Effect.zipRight(Deferred.succeed(started, undefined), sleepInRealTime("300 millis")))
      yield* enqueue(TestJobs, { name: "in flight", secret: "s3cret" })
      yield* Effect.scoped(Effect.zipRight(Layer.build(worker), Deferred.await(started)))
      expect(yield* jobRows).toMatchObject([{ name: "in flight", status: "done", attempts: 1, secret: null, claimed: false }])
    }).pipe(Effect.provide(freshDatabase())))
})
