import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BeginResult } from "../src/BeginResult.ts"
import { twoProcessesOnOneDatabase } from "./idempotencyLayer.ts"
import { createApp, createdResponse } from "./requests.ts"

describe("IdempotencyStore across processes", () => {
  it.scoped("two processes with their own pools see each other's rows", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      expect(first).not.toBe(second)
      expect(yield* first.begin(createApp)).toEqual(BeginResult.Started())
      expect(yield* second.begin(createApp)).toEqual(BeginResult.InProgress())
      yield* first.complete(createdResponse())
      expect(yield* second.begin(createApp)).toMatchObject({ _tag: "Replay", status: 201 })
      const retried = { ...createApp, key: "released" }
      yield* second.begin(retried)
      yield* second.release(retried)
      expect(yield* first.begin(retried)).toEqual(BeginResult.Started())
    }))

  it.scoped("of concurrent first requests exactly one starts and the others see InProgress", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).begin(createApp)),
        { concurrency: "unbounded" }
      )
      const tags = results.map((r) => r._tag)
      expect(tags.filter((t) => t === "Started")).toHaveLength(1)
      expect(tags.filter((t) => t === "InProgress")).toHaveLength(19)
    }))
})
