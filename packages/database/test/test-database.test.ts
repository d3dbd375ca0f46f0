import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { Database, TestDatabase } from "../src/index.ts"
import { addWidget, widgetMigrations, widgetNames } from "./fixtures/widgets.ts"

const onUrl = (url: string, maxConnections?: number) =>
  Database.layer({
    url: Option.some(Redacted.make(url)),
    dataDir: "unused",
    migrations: {},
    ...(maxConnections === undefined ? {} : { maxConnections })
  })

describe("TestDatabase", () => {
  it.scopedLive("layer gives each build its own migrated database", () =>
    Effect.gen(function*() {
      const [first, second] = yield* Effect.all(
        [Layer.build(TestDatabase.layer(widgetMigrations)), Layer.build(TestDatabase.layer(widgetMigrations))],
        { concurrency: "unbounded" }
      )
      yield* Effect.provide(addWidget("only in the first"), first)
      assert.deepStrictEqual(yield* Effect.provide(widgetNames, first), ["only in the first"])
      assert.deepStrictEqual(yield* Effect.provide(widgetNames, second), [])
    }))

  it.scopedLive("provision gives a URL other clients can use until its scope closes", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { url } = yield* Scope.extend(TestDatabase.provision, scope)
      yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`create table notes (text text)`),
        onUrl(url)
      )
      const tables = yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select tablename from pg_tables where tablename = 'notes'`),
        onUrl(url)
      )
      assert.lengthOf(tables, 1)

      yield* Scope.close(scope, Exit.void)
      const error = yield* Effect.flip(Effect.provide(Effect.void, onUrl(url)))
      assert.strictEqual(error._tag, "DatabaseError")
    }))

  it("hasServer tells whether TEST_DATABASE_URL is set", () => {
    assert.strictEqual(TestDatabase.hasServer, (process.env["TEST_DATABASE_URL"] ?? "") !== "")
  })
})
