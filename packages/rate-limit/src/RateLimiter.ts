import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { fixedWindowAt, secondsUntilWindowEnds } from "./fixedWindow.ts"
import { rateLimitKeyDigest } from "./rateLimitKeyDigest.ts"
import { rowsDecoder } from "@platform/database"

export interface RateLimitHit {
  /** Caller-built key naming the operation and the subject, e.g. `cli_login_start:ip:1.2.3.4`. */
  readonly key: string
  /** Hits admitted per window (0 refuses everything). */
  readonly limit: number
  /** Window length; windows are aligned to the Unix epoch. */
  readonly windowSeconds: number
  /** How many hits this one counts for (the rows of an import); default 1. */
  readonly cost?: number | undefined
}

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Hits still admitted in this window after this one. */
  readonly remaining: number
  /** When the current window ends and the count starts again. */
  readonly resetAt: Date
  /** Seconds until the window ends (at least 1) when refused; 0 when allowed. */
  readonly retryAfterSeconds: number
}

/** Spec retention: "rate windows older than a day" are swept. */
export const RATE_WINDOW_RETENTION: Duration.Duration = Duration.days(1)

export interface RateLimiterService {
  /** Counts one hit against the key's current window and says whether it is admitted. */
  readonly hit: (input: RateLimitHit) => Effect.Effect<RateLimitDecision, SqlError>
  /** Gives back one hit counted in the key's current window (an attempt that turned out not to count). */
  readonly release: (input: Omit<RateLimitHit, "limit">) => Effect.Effect<void, SqlError>
  /** Deletes windows that ended more than `age` ago; returns how many rows went. */
  readonly purgeOlderThan: (age: Duration.DurationInput) => Effect.Effect<number, SqlError>
  /** The retention sweep: `purgeOlderThan(RATE_WINDOW_RETENTION)`. */
  readonly sweep: Effect.Effect<number, SqlError>
}

const CountRow = Schema.Struct({ count: Schema.Union(Schema.Number, Schema.NumberFromString) })
/** Rows that do not match are a broken database contract, hence a defect rather than a typed error. */
const decodeCountRows = rowsDecoder(CountRow)

const validateHit = (input: RateLimitHit): Effect.Effect<void> =>
  Number.isSafeInteger(input.limit) && input.limit >= 0 &&
    Number.isSafeInteger(input.windowSeconds) && input.windowSeconds > 0 &&
    (input.cost === undefined || (Number.isSafeInteger(input.cost) && input.cost >= 1))
    ? Effect.void
    : Effect.dieMessage(
      `RateLimiter.hit: limit must be an integer >= 0, windowSeconds an integer > 0 and cost an integer >= 1 (key ${input.key})`
    )

export const makeRateLimiter: Effect.Effect<RateLimiterService, never, SqlClient.SqlClient> = Effect.gen(
  function*() {
    const sql = yield* SqlClient.SqlClient

    const hit = (input: RateLimitHit): Effect.Effect<RateLimitDecision, SqlError> =>
      Effect.gen(function*() {
        yield* validateHit(input)
        const cost = input.cost ?? 1
        const nowMillis = yield* Clock.currentTimeMillis
        const window = fixedWindowAt(nowMillis, input.windowSeconds)
        const rows = yield* sql`
          INSERT INTO rate_limit_windows (key_digest, window_seconds, window_start, window_end, count)
          VALUES (
            ${rateLimitKeyDigest(input.key)}, ${input.windowSeconds},
            ${new Date(window.startMillis)}, ${new Date(window.endMillis)}, ${cost}
          )
          ON CONFLICT (key_digest, window_seconds, window_start)
          DO UPDATE SET count = rate_limit_windows.count + ${cost}
          RETURNING count
        `.pipe(Effect.flatMap(decodeCountRows))
        const count = rows[0]?.count ?? Number.POSITIVE_INFINITY
        const allowed = count <= input.limit
        return {
          allowed,
          limit: input.limit,
          remaining: Math.max(0, input.limit - count),
          resetAt: new Date(window.endMillis),
          retryAfterSeconds: allowed ? 0 : secondsUntilWindowEnds(nowMillis, window)
        }
      })

    const release = (input: Omit<RateLimitHit, "limit">): Effect.Effect<void, SqlError> =>
      Effect.gen(function*() {
        const window = fixedWindowAt(yield* Clock.currentTimeMillis, input.windowSeconds)
        const row = sql`key_digest = ${rateLimitKeyDigest(input.key)} AND window_seconds = ${input.windowSeconds}
          AND window_start = ${new Date(window.startMillis)}`
        // A window holds at least one hit (CHECK count > 0): giving back its only hit deletes it.
        // Racing another give-back, this one may be lost (one hit too many counted), never the reverse.
        yield* sql`DELETE FROM rate_limit_windows WHERE ${row} AND count = 1`
        yield* sql`UPDATE rate_limit_windows SET count = count - 1 WHERE ${row} AND count > 1`
      })

    const purgeOlderThan = (age: Duration.DurationInput): Effect.Effect<number, SqlError> =>
      Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        const cutoff = new Date(nowMillis - Duration.toMillis(Duration.decode(age)))
        const rows = yield* sql`
          WITH purged AS (DELETE FROM rate_limit_windows WHERE window_end < ${cutoff} RETURNING 1)
          SELECT count(*)::integer AS count FROM purged
        `.pipe(Effect.flatMap(decodeCountRows))
        return rows[0]?.count ?? 0
      })

    return { hit, release, purgeOlderThan, sweep: purgeOlderThan(RATE_WINDOW_RETENTION) }
  }
)

export class RateLimiter extends Context.Tag("@platform/rate-limit/RateLimiter")<RateLimiter, RateLimiterService>() {
  static readonly layer: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
    RateLimiter,
    makeRateLimiter
  )
}
