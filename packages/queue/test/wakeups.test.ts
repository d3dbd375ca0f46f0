import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Deferred, type Duration, Effect, Layer, Option, Schedule } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { queueWorkerLayer } from "../src/QueueWorker.ts"
import { sleepInRealTime } from "../src/realTime.ts"
import { freshDatabase, TestJobs } from "./support/testJobs.ts"

/**
 * A worker that would next poll only after `pollInterval` (after its first, empty pass), and jobs
 * queued afterwards: resolves with the name of the first job the worker runs. The worker's LISTEN
 * is in place at a moment the test cannot see, so a job is queued again each second until one runs:
 * with an hour between polls, only an announcement can have woken the worker.
 */
const jobRunAfterEnqueue = (pollInterval: Duration.DurationInput) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ran = yield* Deferred.make<string>()
    yield* Layer.build(queueWorkerLayer(TestJobs, {
      handle: (job) => Effect.asVoid(Deferred.succeed(ran, job.payload.name)),
      describeFailure: () => "never fails",
      handlerName: "the test handler",
      retrySchedule: Schedule.stop,
      pollInterval
    }))
    const queueAndWait = Effect.zipRight(
      sql.withTransaction(enqueue(TestJobs, { name: "announced", secret: null })),
      Effect.raceFirst(Effect.asSome(Deferred.await(ran)), Effect.as(sleepInRealTime("1 second"), Option.none<string>()))
    )
    return yield* Effect.repeat(queueAndWait, { until: Option.isSome }).pipe(Effect.map(Option.getOrThrow))
  })

it.scopedLive(
  TestDatabase.hasServer
    ? "on a PostgreSQL server a committed job wakes an idle worker at once, whatever its poll interval (1 hour here)"
    : "on the embedded database (no NOTIFY) an idle worker finds a new job at its next poll",
  () =>
    jobRunAfterEnqueue(TestDatabase.hasServer ? "1 hour" : "50 millis").pipe(
      Effect.map((name) => expect(name).toBe("announced")),
      Effect.provide(freshDatabase())
    )
)
