import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { emptyDatabaseTemplate } from "../src/embedded/empty-database-template.ts"
import { servePGlite } from "../src/embedded/pglite-socket-server.ts"
import { connectPg, serverKindOf } from "../src/pg-connection.ts"
import { TestDatabase } from "../src/index.ts"
import { widgetMigrations } from "./fixtures/widgets.ts"

const servedPGliteUrl = emptyDatabaseTemplate.pipe(
  Effect.flatMap((template) => servePGlite({ pglite: { loadDataDir: template }, listen: { host: "127.0.0.1", port: 0 } })),
  Effect.map((address) => `postgres://postgres@${address}/postgres`)
)

/** A client as a service process opens it from its configured URL: named statements asked for, a pool of 10. */
const processClient = (url: string) =>
  connectPg({ url: Redacted.make(url), maxConnections: 10 }, { description: "test" }, { keepPlans: true })

const sameStatementTwice = (client: SqlClient.SqlClient) =>
  Effect.forEach([1, 2], (n) => client<{ n: number }>`select ${n}::int as n`, { concurrency: "unbounded" })

describe("what the client is talking to", () => {
  it.scopedLive("PGlite served over a socket is recognised, and two processes on it run the same statements (no named-statement clash)", () =>
    Effect.gen(function*() {
      const url = yield* servedPGliteUrl
      assert.strictEqual(yield* Effect.promise(() => serverKindOf({ connectionString: url })), "pglite")
      const first = yield* processClient(url)
      const second = yield* processClient(url)
      // With named statements, the second process's Parse of the same text failed: "prepared statement s_… already exists".
      const answers = yield* Effect.all([sameStatementTwice(first), sameStatementTwice(second)])
      assert.deepStrictEqual(answers.flat().map((rows) => rows[0]?.n), [1, 2, 1, 2])
    }))

  it.scopedLive("a test database's migrations and queries work from two processes at once on whichever server the suite has", () =>
    Effect.gen(function*() {
      const shared = yield* TestDatabase.sharedByProcesses(widgetMigrations)
      const names = (database: typeof shared) =>
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ name: string }>`select name from widgets where id > ${0}`).pipe(
          Effect.provide(Layer.fresh(database))
        )
      const [first, second] = yield* Effect.all([names(shared), names(shared)], { concurrency: 2 })
      assert.deepStrictEqual([first, second], [[], []])
    }))

  it.scopedLive("the suite's test database is recognised: PostgreSQL on TEST_DATABASE_URL (named statements kept there), else PGlite", () =>
    Effect.gen(function*() {
      const { url } = yield* TestDatabase.provision
      const kind = yield* Effect.promise(() => serverKindOf({ connectionString: url }))
      assert.strictEqual(kind, TestDatabase.hasServer ? "postgresql" : "pglite")
    }))

  it.scopedLive("pg_trgm and fuzzystrmatch can be created on the suite's database, PGlite included", () =>
    Effect.gen(function*() {
      const database = yield* Layer.build(TestDatabase.layer({}))
      const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.zipRight(
          sql`create extension if not exists pg_trgm`.pipe(Effect.zipRight(sql`create extension if not exists fuzzystrmatch`)),
          sql<{ similarity: number; distance: number }>`
            select similarity('weathr', 'weather')::float8 as similarity, levenshtein('weathr', 'weather') as distance
          `
        )).pipe(Effect.provide(database))
      assert.deepStrictEqual(rows, [{ similarity: 0.5, distance: 1 }])
    }))
})
