import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BeginResult } from "../src/BeginResult.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"
import { storeOverFreshDatabase } from "./idempotencyLayer.ts"
import { createApp, createdResponse, sameKeyOtherBody } from "./requests.ts"

describe("IdempotencyStore", () => {
  it.effect("replays the stored status, headers and body after completion", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      expect(yield* store.begin(createApp)).toEqual(BeginResult.Started())
      const response = createdResponse()
      yield* store.complete(response)
      const replay = yield* store.begin(createApp)
      expect(replay).toEqual(
        BeginResult.Replay({ status: 201, headers: response.headers, body: response.body })
      )
      expect(replay._tag === "Replay" && replay.body).toBeInstanceOf(Uint8Array)
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("stores bodies byte for byte, including empty ones", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const binary = Uint8Array.from({ length: 256 }, (_, i) => i)
      yield* store.begin(createApp)
      yield* store.complete({ ...createdResponse(), body: binary })
      const other = { ...createApp, key: "second" }
      yield* store.begin(other)
      yield* store.complete({ ...createdResponse("standard", other), status: 204, headers: {}, body: new Uint8Array() })
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay", body: binary })
      expect(yield* store.begin(other)).toEqual(
        BeginResult.Replay({ status: 204, headers: {}, body: new Uint8Array() })
      )
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("answers InProgress to the same request while the first one runs", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      expect(yield* store.begin(createApp)).toEqual(BeginResult.InProgress())
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("answers Mismatch to a different request with the same key, running or finished", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      expect(yield* store.begin(sameKeyOtherBody)).toEqual(BeginResult.Mismatch())
      yield* store.complete(createdResponse())
      expect(yield* store.begin(sameKeyOtherBody)).toEqual(BeginResult.Mismatch())
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay" })
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("keeps keys of different scopes apart", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      expect(yield* store.begin({ ...sameKeyOtherBody, scope: "other-credential:POST /v1/apps" })).toEqual(
        BeginResult.Started()
      )
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("release frees a running key so the retry runs again", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      yield* store.release(createApp)
      expect(yield* store.begin(createApp)).toEqual(BeginResult.Started())
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("release leaves a finished result in place", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(createApp)
      yield* store.complete(createdResponse())
      yield* store.release(createApp)
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay", status: 201 })
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("complete stores nothing for a request that does not hold the key; the first completion wins", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.complete(createdResponse())
      expect(yield* store.begin(createApp)).toEqual(BeginResult.Started())
      yield* store.complete(createdResponse("standard", sameKeyOtherBody))
      expect(yield* store.begin(createApp)).toEqual(BeginResult.InProgress())
      yield* store.complete(createdResponse())
      yield* store.complete({ ...createdResponse(), status: 500 })
      expect(yield* store.begin(createApp)).toMatchObject({ _tag: "Replay", status: 201 })
    }).pipe(Effect.provide(storeOverFreshDatabase())))
})
