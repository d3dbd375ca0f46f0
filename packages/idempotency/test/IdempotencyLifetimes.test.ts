import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { BeginResult } from "../src/BeginResult.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"
import { storeOverFreshDatabase } from "./idempotencyLayer.ts"
import { createApp, createdResponse, sameKeyOtherBody } from "./requests.ts"

describe("IdempotencyStore lifetimes", () => {
  it.effect("a running request holds its key for 120 seconds, then the same request may take it over", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      yield* TestClock.adjust("119999 millis")
      expect(yield* store.begin(createApp)).toEqual(BeginResult.InProgress())
      yield* TestClock.adjust("1 millis")
      expect(yield* store.begin(sameKeyOtherBody)).toEqual(BeginResult.Mismatch())
      expect(yield* store.begin(createApp)).toEqual(BeginResult.Started())
      expect(yield* store.begin(createApp)).toEqual(BeginResult.InProgress())
      yield* TestClock.adjust("119 seconds")
      expect(yield* store.begin(createApp)).toEqual(BeginResult.InProgress())
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("a standard result is replayed for 24 hours, then the key is free", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      yield* store.complete(createdResponse("standard"))
      yield* TestClock.adjust("86399999 millis")
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay" })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.begin(sameKeyOtherBody)).toEqual(BeginResult.Started())
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("a result carrying a new secret is replayed for 10 minutes only", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      yield* store.complete(createdResponse("secret"))
      yield* TestClock.adjust("599999 millis")
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay" })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.begin(createApp)).toEqual(BeginResult.Started())
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("purgeExpired deletes expired results and abandoned claims only", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const abandoned = { ...createApp, key: "abandoned" }
      const secret = { ...createApp, key: "secret" }
      const standard = { ...createApp, key: "standard" }
      yield* store.begin(abandoned)
      yield* store.begin(secret)
      yield* store.complete(createdResponse("secret", secret))
      yield* store.begin(standard)
      yield* store.complete(createdResponse("standard", standard))
      expect(yield* store.purgeExpired).toBe(0)
      yield* TestClock.adjust("10 minutes")
      expect(yield* store.purgeExpired).toBe(1)
      yield* TestClock.adjust("23 hours")
      expect(yield* store.purgeExpired).toBe(0)
      yield* TestClock.adjust("50 minutes")
      expect(yield* store.purgeExpired).toBe(2)
      expect(yield* store.begin({ ...sameKeyOtherBody, key: "abandoned" })).toEqual(BeginResult.Started())
    }).pipe(Effect.provide(storeOverFreshDatabase())))
})
