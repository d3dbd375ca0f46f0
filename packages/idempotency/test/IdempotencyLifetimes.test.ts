import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"
import { storeOverFreshDatabase } from "./idempotencyLayer.ts"
import { createApp, createdAnswer, sameKeyOtherBody, writeAndAnswer } from "./requests.ts"

describe("IdempotencyStore lifetimes", () => {
  it.effect("a standard result is replayed for 24 hours, then the key is free", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.once(createApp, writeAndAnswer("first", Option.some(createdAnswer("standard"))))
      yield* TestClock.adjust("86399999 millis")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toMatchObject({ _tag: "Replay" })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.once(sameKeyOtherBody, writeAndAnswer("other"))).toEqual({ _tag: "Ran", value: "other" })
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("a result carrying a new secret is replayed for 10 minutes; then the request is not run again but Unavailable until 24 hours", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.once(createApp, writeAndAnswer("first", Option.some(createdAnswer("secret"))))
      yield* TestClock.adjust("599999 millis")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toMatchObject({ _tag: "Replay" })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toEqual({ _tag: "Unavailable" })
      expect(yield* store.once(sameKeyOtherBody, writeAndAnswer("other"))).toEqual({ _tag: "Mismatch" })
      yield* TestClock.adjust("1430 minutes")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toEqual({ _tag: "Ran", value: "again" })
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("purgeExpired erases secret answers after 10 minutes and deletes keys after 24 hours", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const sql = yield* SqlClient.SqlClient
      yield* store.once({ ...createApp, key: "secret" }, writeAndAnswer("s", Option.some(createdAnswer("secret"))))
      yield* store.once({ ...createApp, key: "standard" }, writeAndAnswer("t", Option.some(createdAnswer("standard"))))
      const bodyBytes = sql<{ key: string; bytes: number }>`
        SELECT key, octet_length(body) AS bytes FROM idempotency_keys ORDER BY key
      `.pipe(Effect.orDie)
      expect(yield* store.purgeExpired).toBe(0)
      yield* TestClock.adjust("10 minutes")
      expect(yield* store.purgeExpired).toBe(0)
      const kept = yield* bodyBytes
      expect(kept.map((row) => [row.key, Number(row.bytes) > 0])).toEqual([["secret", false], ["standard", true]])
      yield* TestClock.adjust("1430 minutes")
      expect(yield* store.purgeExpired).toBe(2)
    }).pipe(Effect.provide(storeOverFreshDatabase())))
})
