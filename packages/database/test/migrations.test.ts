import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as path from "node:path"
import { Database, TestDatabase } from "../src/index.ts"
import { temporaryDirectory } from "./fixtures/temporary-directory.ts"
import { migrationState, slowWidgetMigrations, widgetMigrations } from "./fixtures/widgets.ts"

const onUrl = (url: string, migrations = widgetMigrations) =>
  Database.layer({ url: Option.some(Redacted.make(url)), dataDir: "unused", migrations })

const expectedState = { applied: ["1_widgets", "2_migration_runs"], migrationRuns: 1 }

describe("migrations", () => {
  it.scopedLive("are applied once; starting again runs none", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      assert.deepStrictEqual(yield* Effect.provide(migrationState, onUrl(url)), expectedState)
      assert.deepStrictEqual(yield* Effect.provide(migrationState, onUrl(url)), expectedState)
    }))

  it.scopedLive("two processes starting together on one database apply them once", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const [first, second] = yield* Effect.all(
        [Effect.provide(migrationState, onUrl(url, slowWidgetMigrations)), Effect.provide(migrationState, onUrl(url, slowWidgetMigrations))],
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(first, expectedState)
      assert.deepStrictEqual(second, expectedState)
    }))

  it.scopedLive("an embedded host and a client starting together apply them once", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "service")
      const open = Layer.build(Database.layer({ url: Option.none(), dataDir, migrations: slowWidgetMigrations }))
      // Both stay open until the end: the client needs the host's socket.
      const [first, second] = yield* Effect.all([open, open], { concurrency: "unbounded" })
      assert.deepStrictEqual(yield* Effect.provide(migrationState, first), expectedState)
      assert.deepStrictEqual(yield* Effect.provide(migrationState, second), expectedState)
    }))

  it.scopedLive("a failing migration stops the start with its name, and applies nothing", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const failing = {
        ...widgetMigrations,
        "0003_broken": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select * from no_such_table`)
      }
      const error = yield* Effect.flip(Effect.provide(Effect.void, onUrl(url, failing)))
      assert.strictEqual(error._tag, "DatabaseError")
      assert.include(error.message, "3_broken")
      assert.include(error.message, "no_such_table")
      const tables = yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select 1 from pg_tables where tablename = 'widgets'`),
        onUrl(url, {})
      )
      assert.lengthOf(tables, 0)
    }))

  it.scopedLive("refuses keys the Migrator would silently skip", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const error = yield* Effect.flip(Effect.provide(Effect.void, onUrl(url, { ...widgetMigrations, "widgets_v2": Effect.void })))
      assert.include(error.message, "widgets_v2")
    }))
})
