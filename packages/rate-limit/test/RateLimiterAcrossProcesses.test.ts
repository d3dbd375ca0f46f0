import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { twoProcessesOnOneDatabase } from "./rateLimiterLayer.ts"

const flows = { key: "flows:ip:10.0.0.1", windowSeconds: 60 }

describe("RateLimiter across processes", () => {
  it.scoped("two processes with their own pools share one window", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      expect(first).not.toBe(second)
      yield* Effect.replicateEffect(first.hit({ ...flows, limit: 3 }), 2)
      const third = yield* second.hit({ ...flows, limit: 3 })
      expect(third).toMatchObject({ allowed: true, remaining: 0 })
      expect((yield* first.hit({ ...flows, limit: 3 })).allowed).toBe(false)
      expect((yield* second.hit({ ...flows, limit: 3 })).allowed).toBe(false)
    }))

  it.scoped("never admits more than the limit under concurrent hits", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      const limit = 20
      const decisions = yield* Effect.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? first : second).hit({ ...flows, limit })),
        { concurrency: "unbounded" }
      )
      const admitted = decisions.filter((d) => d.allowed)
      expect(admitted).toHaveLength(limit)
      expect(new Set(admitted.map((d) => d.remaining)).size).toBe(limit)
      expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 60)).toBe(true)
    }))
})
