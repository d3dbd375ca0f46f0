import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { rateLimitKeyDigest } from "@platform/rate-limit"
import { Clock, Effect } from "effect"
import type { Answer } from "./http.ts"

/**
 * The answer is the spec's refusal for a spent limit: 429 rate_limited, a message naming the
 * limit (e.g. "300 per minute per IP"), and Retry-After within the window, also in details.
 */
export const expectRateLimited = (answer: Answer, limit: string, windowSeconds: number) => {
  expect(answer.status).toBe(429)
  expect(answer.body.error.code).toBe("rate_limited")
  expect(answer.body.error.message).toContain(limit)
  const retryAfter = Number(answer.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds)
  expect(answer.body.error.details).toEqual({ retry_after_seconds: retryAfter })
}

/**
 * Runs `burst` so that every hit it makes falls in one fixed window of `windowSeconds` (windows are
 * aligned to the clock): when a window boundary passes while it runs, whatever it found, it runs again
 * with the next `salt` (fresh addresses and keys, as the hits before the boundary stay counted), in a
 * window it cannot outlast. No margin of time is assumed.
 */
export const inOneWindow = <A, E, R>(windowSeconds: number, burst: (salt: number) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const length = windowSeconds * 1000
    for (let salt = 0;; salt++) {
      const window = Math.floor((yield* Clock.currentTimeMillis) / length)
      const outcome = yield* Effect.exit(burst(salt))
      if (Math.floor((yield* Clock.currentTimeMillis) / length) === window) return yield* outcome
    }
  })

/** Waits, when the current fixed window of `windowSeconds` ends within 10 seconds, for the next one to begin. */
export const freshWindow = (windowSeconds: number) =>
  Effect.gen(function*() {
    const length = windowSeconds * 1000
    const left = length - ((yield* Clock.currentTimeMillis) % length)
    if (left < 10_000) yield* Effect.sleep(left + 50)
  })

/**
 * Sets the count of the window that `key` opened (it must have been hit once in this window):
 * stands for `count` hits without sending them.
 */
export const spendWindow = (key: string, windowSeconds: number, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      UPDATE rate_limit_windows SET count = ${count}
      WHERE key_digest = ${rateLimitKeyDigest(key)} AND window_seconds = ${windowSeconds}
        AND window_end > ${new Date(yield* Clock.currentTimeMillis)}
      RETURNING 1
    `.pipe(Effect.orDie)
    expect(rows).toHaveLength(1)
  })
