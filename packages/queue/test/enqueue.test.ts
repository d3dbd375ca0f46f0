import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { enqueue } from "../src/enqueue.ts"
import { queueTable } from "../src/QueueTable.ts"
import { freshDatabase, jobRows, TestJob, TestJobs } from "./support/testJobs.ts"

describe("enqueue", () => {
  it.effect("stores a pending job due at the Clock's now and returns its id", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("42 seconds")
      const id = yield* enqueue(TestJobs, { name: "first", secret: "s3cret" })
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      expect(yield* jobRows).toEqual([{
        name: "first",
        secret: "s3cret",
        status: "pending",
        attempts: 0,
        next_attempt_ms: 42_000,
        done_ms: null,
        claimed: false,
        last_error: null
      }])
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("joins the caller's transaction: kept when it commits, gone when it rolls back", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(enqueue(TestJobs, { name: "committed", secret: null }))
      const rolledBack = yield* sql.withTransaction(
        Effect.zipRight(enqueue(TestJobs, { name: "rolled back", secret: null }), Effect.fail("state change refused"))
      ).pipe(Effect.flip)
      expect(rolledBack).toBe("state change refused")
      expect((yield* jobRows).map((row) => row.name)).toEqual(["committed"])
    }).pipe(Effect.provide(freshDatabase())))
})

describe("queueTable", () => {
  const definition = { table: "jobs", payload: TestJob, doneStatus: "done", doneAtColumn: "done_at", eraseWhenFinished: [] }

  it("reads the payload's columns from its encoded side", () => {
    const Renamed = Schema.Struct({ name: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("job_name")) })
    expect(queueTable({ ...definition, payload: Renamed }).payloadColumns).toEqual(["job_name"])
    expect(TestJobs.payloadColumns).toEqual(["name", "secret"])
  })

  it("refuses names that are not plain identifiers, state columns, the built-in statuses and a payload without columns", () => {
    expect(() => queueTable({ ...definition, table: "jobs; DROP TABLE x" })).toThrow(/not a plain lower-case SQL identifier/)
    expect(() => queueTable({ ...definition, doneAtColumn: "claimed_until" })).toThrow(/state column/)
    expect(() => queueTable({ ...definition, payload: Schema.Struct({ status: Schema.String }) })).toThrow(/state column/)
    expect(() => queueTable({ ...definition, doneStatus: "failed" })).toThrow(/done status/)
    const NotAStruct = Schema.Record({ key: Schema.String, value: Schema.String })
    expect(() => queueTable({ ...definition, payload: NotAStruct, eraseWhenFinished: [] })).toThrow(/must be a struct/)
  })
})
