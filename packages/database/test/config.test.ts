import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Database, DatabaseConfig, TestDatabase } from "../src/index.ts"
import { temporaryDirectory } from "./fixtures/temporary-directory.ts"
import { widgetMigrations, widgetNames } from "./fixtures/widgets.ts"

const fromEnvironment = (environment: Record<string, string>) =>
  Database.layerConfig({ prefix: "SHOP_", service: "shop", migrations: widgetMigrations }).pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(environment)))))
  )

describe("Database.layerConfig", () => {
  it.effect("defaults to the embedded database in data/<service>", () =>
    Effect.gen(function*() {
      const config = yield* DatabaseConfig({ prefix: "SHOP_", service: "shop" }).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["SHOP_DATABASE_URL", " "]])))
      )
      assert.deepStrictEqual(config, { url: Option.none(), dataDir: "data/shop" })
    }))

  it.scopedLive("uses <prefix>DATABASE_URL when set", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const names = yield* Effect.provide(widgetNames, fromEnvironment({ SHOP_DATABASE_URL: url }))
      assert.deepStrictEqual(names, [])
      const config = yield* DatabaseConfig({ prefix: "SHOP_", service: "shop" }).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["SHOP_DATABASE_URL", url]])))
      )
      assert.deepStrictEqual(config.url.pipe(Option.map(Redacted.value)), Option.some(url))
    }))

  it.scopedLive("otherwise keeps the embedded database in <prefix>DATA_DIR", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "shop")
      const lockHolder = yield* Effect.provide(
        Effect.zipRight(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select 1`),
          Effect.sync(() => fs.readFileSync(path.join(dataDir, "embedded.lock"), "utf8").trim())
        ),
        fromEnvironment({ SHOP_DATA_DIR: dataDir })
      )
      assert.strictEqual(lockHolder, String(process.pid))
    }))
})
