import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Redacted, Scope } from "effect"
import { Database, TestDatabase } from "../src/index.ts"

const onUrl = (url: string, maxConnections?: number) =>
  Database.layer({
    url: Option.some(Redacted.make(url)),
    dataDir: "unused",
    migrations: {},
    ...(maxConnections === undefined ? {} : { maxConnections })
  })

const elapsedMillis = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = Date.now()
    const result = yield* self
    return [result, Date.now() - start] as const
  })

describe("Database.ping", () => {
  it.scopedLive("answers while the database is up, and fails soon after it goes away", () =>
    Effect.gen(function*() {
      const serverScope = yield* Scope.make()
      const { url } = yield* Scope.extend(TestDatabase.provision, serverScope)
      const database = yield* Layer.build(onUrl(url))
      yield* Effect.provide(Database.ping, database)

      yield* Scope.close(serverScope, Exit.void)
      const [error, millis] = yield* elapsedMillis(Effect.flip(Effect.provide(Database.ping, database)))
      assert.strictEqual(error._tag, "DatabaseError")
      assert.isBelow(millis, 3_000)
    }))

  it.scopedLive("gives up after about 2 seconds when the database does not answer", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const database = yield* Layer.build(onUrl(url, 1))
      const sql = yield* Effect.provide(SqlClient.SqlClient, database)
      // Holds the only connection, so that the probe's query cannot run.
      const blocker = yield* Effect.fork(sql.withTransaction(Effect.zipRight(sql`select 1`, Effect.never)))
      yield* Effect.sleep("200 millis")
      const [error, millis] = yield* elapsedMillis(Effect.flip(Effect.provide(Database.ping, database)))
      assert.include(error.message, "did not answer within 2 seconds")
      assert.isAtLeast(millis, 1_900)
      assert.isBelow(millis, 3_000)
      yield* Fiber.interrupt(blocker)
      yield* Effect.provide(Database.ping, database)
    }))
})

describe("Database.layer against a URL", () => {
  it.live("fails the start quickly when the server is unreachable, without showing the password", () =>
    Effect.gen(function*() {
      const [error, millis] = yield* elapsedMillis(
        Effect.flip(Effect.provide(Effect.void, onUrl("postgres://app:s3cret-pw@127.0.0.1:1/app")))
      )
      assert.strictEqual(error._tag, "DatabaseError")
      assert.include(error.message, "postgres://app@127.0.0.1:1/app")
      assert.notInclude(error.message, "s3cret-pw")
      assert.isBelow(millis, 5_000)
    }))

  it.live("refuses a malformed URL without repeating it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Effect.provide(Effect.void, onUrl("mysql://app:s3cret-pw@host/app")))
      assert.include(error.message, "not a valid postgres://")
      assert.notInclude(error.message, "s3cret-pw")
    }))
})
