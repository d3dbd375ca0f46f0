import type { HttpServerRequest } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import { type Admission, clientAddressOf, RateLimited } from "@platform/http"
import type { RateLimiterService } from "@platform/rate-limit"
import { Clock, Effect } from "effect"

const READS = new Set(["GET", "HEAD", "OPTIONS"])
const WINDOW_SECONDS = 60

/** A client is its credential when it sends one (never stored as is), else its address. */
const clientOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const authorization = request.headers["authorization"]
  return authorization === undefined ? `address:${clientAddressOf(request, trustProxy)}` : `credential:${sha256Hex(authorization)}`
}

/**
 * Spec 2's limits on every request: reads and writes per minute per client, counted in PostgreSQL so that
 * every process shares them. Every response says where the client stands, in the header fields of
 * draft-ietf-httpapi-ratelimit-headers-07 (RateLimit-Limit, -Remaining, -Reset in seconds, -Policy
 * `<limit>;w=<window>`); past the limit, 429 rate_limited with Retry-After.
 */
export const requestLimits = (
  limiter: RateLimiterService,
  options: { readonly readsPerMinute: number; readonly writesPerMinute: number; readonly trustProxy: boolean }
): Admission =>
(request) => {
  const read = READS.has(request.method)
  const limit = read ? options.readsPerMinute : options.writesPerMinute
  const key = `${read ? "reads" : "writes"}:${clientOf(request, options.trustProxy)}`
  return Effect.gen(function*() {
    const decision = yield* Effect.orDie(limiter.hit({ key, limit, windowSeconds: WINDOW_SECONDS }))
    const now = yield* Clock.currentTimeMillis
    const reset = Math.max(1, Math.ceil((decision.resetAt.getTime() - now) / 1000))
    const headers = {
      "ratelimit-limit": String(limit),
      "ratelimit-remaining": String(decision.remaining),
      "ratelimit-reset": String(reset),
      "ratelimit-policy": `${limit};w=${WINDOW_SECONDS}`
    }
    if (decision.allowed) return { headers }
    return {
      headers,
      refusal: new RateLimited({
        message: `Rate limit reached: ${limit} ${read ? "reads" : "writes"} per minute per client.`,
        hint: `Retry after ${decision.retryAfterSeconds} seconds${read ? "" : " with the same Idempotency-Key"}.`,
        details: { retry_after_seconds: decision.retryAfterSeconds }
      })
    }
  })
}
