import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import { PriorRequest } from "../src/PriorRequest.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"
import { storeOverFreshDatabase } from "./idempotencyLayer.ts"
import { createApp, createdAnswer, sameKeyOtherBody, writeAndAnswer, writesOf } from "./requests.ts"

describe("IdempotencyStore", () => {
  it.effect("runs a request once; the same request then replays the stored status, headers and body", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      expect(yield* store.once(createApp, writeAndAnswer("first"))).toEqual({ _tag: "Ran", value: "first" })
      const answer = createdAnswer()
      const replay = yield* store.once(createApp, writeAndAnswer("second"))
      expect(replay).toEqual(PriorRequest.Replay({ status: 201, headers: answer.headers, body: answer.body }))
      expect(replay._tag === "Replay" && replay.body).toBeInstanceOf(Uint8Array)
      expect(yield* writesOf("first")).toBe(1)
      expect(yield* writesOf("second")).toBe(0)
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("stores bodies byte for byte, including empty ones", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const binary = Uint8Array.from({ length: 256 }, (_, i) => i)
      const other = { ...createApp, key: "second" }
      yield* store.once(createApp, writeAndAnswer("a", Option.some({ ...createdAnswer(), body: binary })))
      yield* store.once(other, writeAndAnswer("b", Option.some({ status: 204, headers: {}, body: new Uint8Array(), retention: "standard" })))
      expect(yield* store.once(createApp, writeAndAnswer("a"))).toMatchObject({ _tag: "Replay", body: binary })
      expect(yield* store.once(other, writeAndAnswer("b"))).toEqual(
        PriorRequest.Replay({ status: 204, headers: {}, body: new Uint8Array() })
      )
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("answers Mismatch to a different request with the same key, and keeps scopes apart", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.once(createApp, writeAndAnswer("first"))
      expect(yield* store.once(sameKeyOtherBody, writeAndAnswer("other"))).toEqual(PriorRequest.Mismatch())
      const otherCaller = { ...sameKeyOtherBody, scope: "other-credential:POST /v1/apps" }
      expect(yield* store.once(otherCaller, writeAndAnswer("other"))).toEqual({ _tag: "Ran", value: "other" })
      expect(yield* writesOf("other")).toBe(1)
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("a run that keeps no answer (a 5xx) rolls back its writes, and the retry runs again", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      expect(yield* store.once(createApp, writeAndAnswer("failed", Option.none()))).toEqual({ _tag: "Ran", value: "failed" })
      expect(yield* writesOf("failed")).toBe(0)
      expect(yield* store.once(createApp, writeAndAnswer("retried"))).toEqual({ _tag: "Ran", value: "retried" })
      expect(yield* writesOf("retried")).toBe(1)
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("a run that dies half way (as a crash would end it) leaves no write and no answer: the retry runs once", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const crashed = yield* Effect.exit(store.once(createApp, Effect.zipRight(writeAndAnswer("crashed"), Effect.die("killed"))))
      expect(crashed._tag).toBe("Failure")
      expect(yield* writesOf("crashed")).toBe(0)
      expect(yield* store.once(createApp, writeAndAnswer("retried"))).toMatchObject({ _tag: "Ran" })
      expect(yield* store.once(createApp, writeAndAnswer("retried"))).toMatchObject({ _tag: "Replay" })
      expect(yield* writesOf("retried")).toBe(1)
    }).pipe(Effect.provide(storeOverFreshDatabase())))

  it.effect("while a request runs, the same key is InProgress at once", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const first = yield* Effect.fork(store.once(
        createApp,
        Deferred.succeed(started, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.zipRight(writeAndAnswer("first")))
      ))
      yield* Deferred.await(started)
      expect(yield* store.once(createApp, writeAndAnswer("second"))).toEqual(PriorRequest.InProgress())
      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(first)).toEqual({ _tag: "Ran", value: "first" })
      expect(yield* store.once(createApp, writeAndAnswer("second"))).toMatchObject({ _tag: "Replay" })
      expect(yield* writesOf("second")).toBe(0)
    }).pipe(Effect.provide(storeOverFreshDatabase())))
})
