import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { twoProcessesOnOneDatabase } from "./idempotencyLayer.ts"
import { createApp, writeAndAnswer, writesOf } from "./requests.ts"

describe("IdempotencyStore across processes", () => {
  it.scoped("of concurrent first requests in two processes exactly one runs; the others are in progress or replay it", () =>
    Effect.gen(function*() {
      const processes = yield* twoProcessesOnOneDatabase
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) => {
          const { store, sql } = processes[i % 2]!
          return Effect.provideService(store.once(createApp, writeAndAnswer("order")), SqlClient.SqlClient, sql)
        }),
        { concurrency: "unbounded" }
      )
      const tags = results.map((result) => result._tag)
      expect(tags.filter((tag) => tag === "Ran")).toHaveLength(1)
      expect(tags.filter((tag) => tag !== "Ran" && tag !== "InProgress" && tag !== "Replay")).toEqual([])
      const [first, second] = processes
      expect(yield* Effect.provideService(writesOf("order"), SqlClient.SqlClient, first.sql)).toBe(1)
      expect(yield* Effect.provideService(second.store.once(createApp, writeAndAnswer("order")), SqlClient.SqlClient, second.sql))
        .toMatchObject({ _tag: "Replay", status: 201 })
    }))

  it.scoped("a request that died in one process runs again, once, in the other", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      const died = yield* Effect.exit(Effect.provideService(
        first.store.once(createApp, Effect.zipRight(writeAndAnswer("order"), Effect.die("kill -9"))),
        SqlClient.SqlClient,
        first.sql
      ))
      expect(died._tag).toBe("Failure")
      const retried = yield* Effect.provideService(second.store.once(createApp, writeAndAnswer("order")), SqlClient.SqlClient, second.sql)
      expect(retried).toEqual({ _tag: "Ran", value: "order" })
      expect(yield* Effect.provideService(writesOf("order"), SqlClient.SqlClient, second.sql)).toBe(1)
    }))
})
