import { expect } from "@effect/vitest"
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
