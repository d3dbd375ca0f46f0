import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Data, Effect, Schema } from "effect"
import { queueTable } from "../../src/QueueTable.ts"
import { createQueueTable } from "../../src/QueueTableMigration.ts"

/** A job of the test queue: a name, and a secret that must not outlive it. */
export const TestJob = Schema.Struct({ name: Schema.String, secret: Schema.NullOr(Schema.String) })

export const TestJobs = queueTable({
  table: "test_jobs",
  payload: TestJob,
  doneStatus: "done",
  doneAtColumn: "done_at",
  eraseWhenFinished: ["secret"]
})

/** A queue whose finished jobs keep their payload, so they can be requeued. */
export const KeptJobs = queueTable({
  table: "kept_jobs",
  payload: Schema.Struct({ name: Schema.String, group_key: Schema.String }),
  doneStatus: "done",
  doneAtColumn: "done_at",
  eraseWhenFinished: []
})

export const migrations = {
  "0001_test_jobs": createQueueTable(TestJobs, "name text NOT NULL, secret text"),
  "0002_kept_jobs": createQueueTable(KeptJobs, "name text NOT NULL, group_key text NOT NULL")
}

export const freshDatabase = () => TestDatabase.layer(migrations)

export class JobFailed extends Data.TaggedError("JobFailed")<{ readonly reason: string }> {}

const JobRow = Schema.Struct({
  name: Schema.String,
  secret: Schema.NullOr(Schema.String),
  status: Schema.Literal("pending", "done", "failed"),
  attempts: Schema.Number,
  next_attempt_ms: Schema.NullOr(Schema.NumberFromString),
  done_ms: Schema.NullOr(Schema.NumberFromString),
  claimed: Schema.Boolean,
  last_error: Schema.NullOr(Schema.String)
})

/** Every job row, oldest first, with times as epoch milliseconds. */
export const jobRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`
    SELECT name, secret, status, attempts,
      (extract(epoch FROM next_attempt_at) * 1000)::bigint::text AS next_attempt_ms,
      (extract(epoch FROM done_at) * 1000)::bigint::text AS done_ms,
      claimed_until IS NOT NULL AS claimed, last_error
    FROM test_jobs ORDER BY created_at, name
  `
  return yield* Schema.decodeUnknown(Schema.Array(JobRow))(rows)
}).pipe(Effect.orDie)

const KeptRow = Schema.Struct({
  name: Schema.String,
  status: Schema.Literal("pending", "done", "failed"),
  attempts: Schema.Number,
  next_attempt_ms: Schema.NullOr(Schema.NumberFromString),
  last_error: Schema.NullOr(Schema.String)
})

/** Every kept job, by name, with times as epoch milliseconds. */
export const keptRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`
    SELECT name, status, attempts, (extract(epoch FROM next_attempt_at) * 1000)::bigint::text AS next_attempt_ms, last_error
    FROM kept_jobs ORDER BY name
  `
  return yield* Schema.decodeUnknown(Schema.Array(KeptRow))(rows)
}).pipe(Effect.orDie)
