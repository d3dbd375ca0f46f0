import { describe, expect, it } from "@effect/vitest"
import { delayBeforeRetry } from "@platform/queue"
import { Duration, Effect, Option } from "effect"
import { mailRetrySchedule } from "../src/retryBackoff.ts"

/** The wait after the `failed`-th failed attempt, in seconds, when attempts are not limited. */
const waitAfter = (failed: number) =>
  Effect.map(delayBeforeRetry(mailRetrySchedule(1_000), failed), (delay) => Duration.toSeconds(Option.getOrThrow(delay)))

describe("mailRetrySchedule", () => {
  it.effect("doubles from 2 seconds and stops growing at 5 minutes", () =>
    Effect.gen(function*() {
      expect(yield* Effect.forEach([1, 2, 3, 7], waitAfter)).toEqual([2, 4, 8, 128])
      expect(yield* waitAfter(9)).toBe(300)
      expect(yield* waitAfter(40)).toBe(300)
    }))

  it.effect("ends after maxAttempts attempts in all", () =>
    Effect.gen(function*() {
      expect(Option.isSome(yield* delayBeforeRetry(mailRetrySchedule(8), 7))).toBe(true)
      expect(yield* delayBeforeRetry(mailRetrySchedule(8), 8)).toEqual(Option.none())
    }))
})
