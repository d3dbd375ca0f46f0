import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { emptyDatabaseTemplate } from "../src/embedded/empty-database-template.ts"
import { servePGlite } from "../src/embedded/pglite-socket-server.ts"
import { WireClient } from "./fixtures/wire-client.ts"

const servedPGlite = emptyDatabaseTemplate.pipe(
  Effect.flatMap((template) =>
    servePGlite({ pglite: { loadDataDir: template }, listen: { host: "127.0.0.1", port: 0 } })
  ),
  Effect.map((address) => Number(address.split(":").at(-1)))
)

const connect = (port: number) =>
  Effect.acquireRelease(Effect.promise(() => WireClient.connect(port)), (client) => Effect.sync(() => client.close()))

const pause = Effect.sleep("100 millis")

// PGlite is one session, shared by every client of its socket server.
describe("one PGlite shared by several clients", () => {
  it.scopedLive("another client's query waits until a query's last message (Sync)", () =>
    Effect.gen(function*() {
      const port = yield* servedPGlite
      const first = yield* connect(port)
      const second = yield* connect(port)
      first.parse("select $1::text as value").bind(["first"])
      yield* pause
      second.query("select 'second'")
      yield* pause
      first.execute().sync()
      assert.deepStrictEqual(yield* Effect.promise(() => first.untilReady()), { values: ["first"], errors: [] })
      assert.deepStrictEqual(yield* Effect.promise(() => second.untilReady()), { values: ["second"], errors: [] })
    }))

  it.scopedLive("a client that leaves in the middle of a query does not hold up the others", () =>
    Effect.gen(function*() {
      const port = yield* servedPGlite
      const leaving = yield* connect(port)
      const staying = yield* connect(port)
      leaving.parse("select 1").bind([])
      yield* pause
      staying.query("select 'served'")
      yield* pause
      leaving.close()
      assert.deepStrictEqual(yield* Effect.promise(() => staying.untilReady()), { values: ["served"], errors: [] })
    }))
})
