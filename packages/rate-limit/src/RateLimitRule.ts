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
 * Counts one hit of `subject` (an address, an account uuid, …), or `cost` hits (rows of an
 * import), against the rule, across every process on the database; refuses with 429 rate_limited
 * naming the limit, with Retry-After, once the window is full.
 */
const windowSecondsOf = (rule: RateLimitRule): number => Math.round(Duration.toSeconds(Duration.decode(rule.window)))

export const enforceRateLimit = (
  limiter: RateLimiterService,
  rule: RateLimitRule,
  subject: string,
  cost = 1
): Effect.Effect<void, RateLimited> => {
  const windowSeconds = windowSecondsOf(rule)
  return limiter.hit({ key: `${rule.id}:${subject}`, limit: rule.limit, windowSeconds, cost }).pipe(
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

/**
 * Counts `effect` against the rule only when it succeeds: the hit is taken
 * first (so concurrent requests cannot overshoot) and given back when the
 * effect fails. For limits on successful operations, such as "10 successful
 * per hour".
 */
export const limitSuccesses = <A, E, R>(
  limiter: RateLimiterService,
  rule: RateLimitRule,
  subject: string,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | RateLimited, R> =>
  Effect.zipRight(
    enforceRateLimit(limiter, rule, subject),
    Effect.tapErrorCause(effect, () =>
      Effect.orDie(limiter.release({ key: `${rule.id}:${subject}`, windowSeconds: windowSecondsOf(rule) })))
  )
