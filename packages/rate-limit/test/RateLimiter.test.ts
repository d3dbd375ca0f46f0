import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { RateLimiter } from "../src/RateLimiter.ts"
import { rateLimiterOverFreshDatabase } from "./rateLimiterLayer.ts"

const login = { key: "cli_login_start:ip:1.2.3.4", limit: 3, windowSeconds: 60 }

describe("RateLimiter.hit", () => {
  it.effect("admits `limit` hits in a window and refuses the next with the time left", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* TestClock.adjust("15500 millis")
      const admitted = yield* Effect.all([limiter.hit(login), limiter.hit(login), limiter.hit(login)])
      expect(admitted.map((d) => [d.allowed, d.remaining, d.retryAfterSeconds])).toEqual([
        [true, 2, 0],
        [true, 1, 0],
        [true, 0, 0]
      ])
      const refused = yield* limiter.hit(login)
      expect(refused).toEqual({
        allowed: false,
        limit: 3,
        remaining: 0,
        resetAt: new Date(60_000),
        retryAfterSeconds: 45
      })
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))

  it.effect("starts counting again in the next window", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* TestClock.adjust("59 seconds")
      yield* Effect.replicateEffect(limiter.hit(login), 3)
      const lastSecond = yield* limiter.hit(login)
      expect([lastSecond.allowed, lastSecond.retryAfterSeconds]).toEqual([false, 1])
      yield* TestClock.adjust("1 second")
      const nextWindow = yield* limiter.hit(login)
      expect(nextWindow).toMatchObject({ allowed: true, remaining: 2, resetAt: new Date(120_000) })
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))

  it.effect("counts each key, and each window length of a key, separately", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* Effect.replicateEffect(limiter.hit(login), 3)
      expect((yield* limiter.hit(login)).allowed).toBe(false)
      expect((yield* limiter.hit({ ...login, key: "cli_login_start:ip:5.6.7.8" })).allowed).toBe(true)
      expect((yield* limiter.hit({ ...login, windowSeconds: 600 })).allowed).toBe(true)
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))

  it.effect("refuses everything with a limit of 0", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const decision = yield* limiter.hit({ ...login, limit: 0 })
      expect(decision).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 })
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))

  it.effect("stores a digest of the key, not the key", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const sql = yield* SqlClient.SqlClient
      yield* limiter.hit({ ...login, key: "verification_code:address:ada@example.com" })
      const rows = yield* sql<{ digest: string }>`SELECT encode(key_digest, 'hex') AS digest FROM rate_limit_windows`
      expect(rows).toHaveLength(1)
      expect(rows[0]?.digest).toMatch(/^[0-9a-f]{64}$/)
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))
})

describe("RateLimiter.release", () => {
  it.effect("gives back the only hit of a window (the row goes) and a later one (the count goes down)", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const sql = yield* SqlClient.SqlClient
      yield* limiter.hit(login)
      yield* limiter.release(login)
      expect(yield* sql`SELECT count FROM rate_limit_windows`).toEqual([])
      yield* Effect.replicateEffect(limiter.hit(login), 3)
      yield* limiter.release(login)
      expect((yield* limiter.hit(login)).allowed).toBe(true)
      expect((yield* limiter.hit(login)).allowed).toBe(false)
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))

  it.effect("giving back with nothing counted changes nothing", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.release(login)
      expect(yield* limiter.hit(login)).toMatchObject({ allowed: true, remaining: 2 })
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))
})

describe("RateLimiter sweep", () => {
  it.effect("deletes windows that ended more than a day ago and keeps the rest", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.hit(login)
      yield* TestClock.adjust("1 day")
      yield* limiter.hit(login)
      expect(yield* limiter.sweep).toBe(0)
      yield* TestClock.adjust("61 seconds")
      expect(yield* limiter.sweep).toBe(1)
      expect(yield* limiter.purgeOlderThan("0 millis")).toBe(1)
      expect((yield* limiter.hit(login)).remaining).toBe(2)
    }).pipe(Effect.provide(rateLimiterOverFreshDatabase())))
})
