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

  it.effect("a result carrying a new secret is replayed for 10 minutes only", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.once(createApp, writeAndAnswer("first", Option.some(createdAnswer("secret"))))
      yield* TestClock.adjust("599999 millis")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toMatchObject({ _tag: "Replay" })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.once(createApp, writeAndAnswer("again"))).toEqual({ _tag: "Ran", value: "again" })
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("purgeExpired deletes expired results only", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.once({ ...createApp, key: "secret" }, writeAndAnswer("s", Option.some(createdAnswer("secret"))))
      yield* store.once({ ...createApp, key: "standard" }, writeAndAnswer("t", Option.some(createdAnswer("standard"))))
      expect(yield* store.purgeExpired).toBe(0)
      yield* TestClock.adjust("10 minutes")
      expect(yield* store.purgeExpired).toBe(1)
      yield* TestClock.adjust("23 hours")
      expect(yield* store.purgeExpired).toBe(0)
      yield* TestClock.adjust("50 minutes")
      expect(yield* store.purgeExpired).toBe(1)
    }).pipe(Effect.provide(storeOverFreshDatabase())))
})
