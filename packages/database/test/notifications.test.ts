import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Option, Stream } from "effect"
import { Notifications, notify, TestDatabase } from "../src/index.ts"

const realPause = (millis: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, millis)))

/** On a PostgreSQL server a NOTIFY reaches a listener when its transaction commits, and not when it rolls back. */
const heardAtCommit = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const notifications = yield* Notifications
  const heard = yield* Stream.runCollect(Stream.take(notifications.listen("jobs_due"), 1)).pipe(Effect.fork)
  // LISTEN is issued on the listener's own connection; give it time to be in place.
  yield* realPause(200)
  yield* sql.withTransaction(Effect.zipRight(notify(sql, "jobs_due"), Effect.fail("rolled back"))).pipe(Effect.ignore)
  yield* realPause(200)
  expect(Option.isNone(yield* Fiber.poll(heard))).toBe(true)
  yield* sql.withTransaction(notify(sql, "jobs_due"))
  expect(Chunk.toArray(yield* Fiber.join(heard))).toEqual(["wake"])
})

/** The embedded database cannot push: a listener hears nothing, and holds no connection (the database stays usable). */
const silentButUsable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const notifications = yield* Notifications
  const heard = yield* Stream.runCollect(notifications.listen("jobs_due")).pipe(Effect.fork)
  yield* sql.withTransaction(notify(sql, "jobs_due"))
  expect(yield* sql`SELECT 1 AS one`).toEqual([{ one: 1 }])
  expect(Option.isNone(yield* Fiber.poll(heard))).toBe(true)
  yield* Fiber.interrupt(heard)
})

it.live(`Notifications on ${TestDatabase.hasServer ? "a PostgreSQL server: heard at commit" : "the embedded database: silent"}`, () =>
  (TestDatabase.hasServer ? heardAtCommit : silentButUsable).pipe(Effect.provide(TestDatabase.layer({}))))
