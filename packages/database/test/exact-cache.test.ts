import { SqlClient } from "@effect/sql"
import type { Connection as SqlConnection } from "@effect/sql/SqlConnection"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import { type ChangeWatch, CommittedChanges, exactCache } from "../src/index.ts"

/** A watch the test drives: `changed` counts a change, `known` says what the fence answers. */
const fakeWatch = () => {
  const state = { generation: 0, known: true, fences: 0 }
  const watch: ChangeWatch = {
    generation: () => state.generation,
    fence: (done) => {
      state.fences++
      done(state.known)
    }
  }
  return { state, changes: Layer.succeed(CommittedChanges, { watch: () => Option.some(watch) }) }
}

const noChanges = Layer.succeed(CommittedChanges, { watch: () => Option.none() })

/** An exact cache of `load` (10 keys unless told) over the given changes. */
const cacheOf = <V, E>(
  changes: Layer.Layer<CommittedChanges>,
  load: (key: string) => Effect.Effect<V, E>,
  options: { readonly capacity?: number; readonly keep?: (value: V) => boolean } = {}
) => exactCache({ channel: "rows", capacity: 10, load, ...options }).pipe(Effect.provide(changes))

/** A load that counts its reads and answers the row's current value. */
const rows = () => {
  const values = new Map<string, string>()
  let reads = 0
  return {
    values,
    reads: () => reads,
    load: (key: string) => Effect.sync(() => (reads++, values.get(key) ?? "missing"))
  }
}

describe("exactCache", () => {
  it.effect("answers a key from memory until a change is counted, then reads again; every lookup waits for the fence", () =>
    Effect.gen(function*() {
      const { changes, state } = fakeWatch()
      const table = rows()
      table.values.set("a", "one")
      const get = yield* cacheOf(changes, table.load)
      expect([yield* get("a"), yield* get("a")]).toEqual(["one", "one"])
      expect(table.reads()).toBe(1)
      expect(state.fences).toBe(2)
      table.values.set("a", "two")
      state.generation++
      expect([yield* get("a"), yield* get("a")]).toEqual(["two", "two"])
      expect(table.reads()).toBe(2)
    }))

  it.effect("a value read while a change is counted is answered but not kept", () =>
    Effect.gen(function*() {
      const { changes, state } = fakeWatch()
      const reading = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      let reads = 0
      const get = yield* exactCache({
        channel: "rows",
        capacity: 10,
        load: (_: string) =>
          Effect.gen(function*() {
            reads++
            if (reads === 1) {
              yield* Deferred.succeed(reading, undefined)
              yield* Deferred.await(release)
              return "read before the change"
            }
            return "read after the change"
          })
      }).pipe(Effect.provide(changes))
      const first = yield* Effect.fork(get("a"))
      yield* Deferred.await(reading)
      state.generation++
      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(first)).toBe("read before the change")
      expect(yield* get("a")).toBe("read after the change")
    }))

  it.effect("reads the database when the fence cannot tell, or without a watch at all", () =>
    Effect.gen(function*() {
      const { changes, state } = fakeWatch()
      const table = rows()
      const get = yield* cacheOf(changes, table.load)
      yield* get("a")
      state.known = false
      yield* get("a")
      yield* get("a")
      expect(table.reads()).toBe(3)
      const unwatched = yield* cacheOf(noChanges, table.load)
      yield* unwatched("a")
      yield* unwatched("a")
      expect(table.reads()).toBe(5)
    }))

  it.effect("inside a transaction every lookup reads the database: the transaction may have written what it reads", () =>
    Effect.gen(function*() {
      const { changes } = fakeWatch()
      const table = rows()
      const get = yield* cacheOf(changes, table.load)
      yield* get("a")
      const inTransaction = Effect.provideService(get("a"), SqlClient.TransactionConnection, [{} as SqlConnection, 0])
      yield* inTransaction
      yield* inTransaction
      expect(table.reads()).toBe(3)
      yield* get("a")
      expect(table.reads()).toBe(3)
    }))

  it.effect("keeps at most `capacity` keys: the oldest makes room", () =>
    Effect.gen(function*() {
      const { changes } = fakeWatch()
      const table = rows()
      const get = yield* cacheOf(changes, table.load, { capacity: 2 })
      yield* Effect.forEach(["a", "b", "c"], get)
      expect(table.reads()).toBe(3)
      yield* get("c")
      yield* get("b")
      expect(table.reads()).toBe(3)
      yield* get("a")
      expect(table.reads()).toBe(4)
    }))

  it.effect("a value `keep` refuses is read again on every lookup", () =>
    Effect.gen(function*() {
      const { changes } = fakeWatch()
      const table = rows()
      const get = yield* cacheOf(changes, table.load, { keep: (value) => value !== "missing" })
      yield* get("a")
      yield* get("a")
      expect(table.reads()).toBe(2)
      table.values.set("a", "here")
      expect([yield* get("a"), yield* get("a")]).toEqual(["here", "here"])
      expect(table.reads()).toBe(3)
    }))

  it.effect("a failed read is not kept", () =>
    Effect.gen(function*() {
      const { changes } = fakeWatch()
      let reads = 0
      const get = yield* exactCache({
        channel: "rows",
        capacity: 10,
        load: (_: string) => Effect.suspend(() => (++reads === 1 ? Effect.fail("down") : Effect.succeed("up")))
      }).pipe(Effect.provide(changes))
      expect(yield* Effect.flip(get("a"))).toBe("down")
      expect(yield* get("a")).toBe("up")
      expect(yield* get("a")).toBe("up")
      expect(reads).toBe(2)
    }))
})
