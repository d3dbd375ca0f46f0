import { RateLimited } from "@platform/http"
import { Duration, Effect } from "effect"
import type { RateLimiterService } from "./RateLimiter.ts"

/** One row of the spec's rate-limit table: what is limited, how much, and per what. */
export interface RateLimitRule {
  /** Stable key prefix, e.g. `reports`. */
  readonly id: string
  /** How the limit reads to a person, e.g. `POST /v1/reports`. */
  readonly operation: string
  readonly limit: number
  readonly window: Duration.DurationInput
  /** What the window is counted per, e.g. `IP`, `account`. */
  readonly per: string
}

const describeWindow = (seconds: number): string =>
  seconds % 3600 === 0
    ? seconds === 3600 ? "hour" : `${seconds / 3600} hours`
    : seconds % 60 === 0
    ? seconds === 60 ? "minute" : `${seconds / 60} minutes`
    : `${seconds} seconds`

/**
 * Counts one hit of `subject` (an address, an account uuid, …) against the
 * rule, across every process on the database; refuses with 429 rate_limited
 * naming the limit, with Retry-After, once the window is full.
 */
export const enforceRateLimit = (
  limiter: RateLimiterService,
  rule: RateLimitRule,
  subject: string
): Effect.Effect<void, RateLimited> => {
  const windowSeconds = Math.round(Duration.toSeconds(Duration.decode(rule.window)))
  return limiter.hit({ key: `${rule.id}:${subject}`, limit: rule.limit, windowSeconds }).pipe(
    Effect.orDie,
    Effect.flatMap((decision) =>
      decision.allowed ? Effect.void : Effect.fail(
        new RateLimited({
          message: `Rate limit reached: ${rule.operation} allows ${rule.limit} per ${
            describeWindow(windowSeconds)
          } per ${rule.per}.`,
          hint: `Retry after ${decision.retryAfterSeconds} seconds.`,
          details: { retry_after_seconds: decision.retryAfterSeconds }
        })
      )
    )
  )
}
