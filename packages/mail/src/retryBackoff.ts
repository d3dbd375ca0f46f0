import { Duration } from "effect"

/** The spec's limit for email and SMS sending: at most 8 attempts. */
export const DEFAULT_MAX_ATTEMPTS = 8

const LONGEST_WAIT = Duration.minutes(5)

/** The wait after the `failedAttempts`-th failed attempt: 2 s, 4 s, 8 s, … doubling, at most 5 minutes. */
export const retryDelayAfter = (failedAttempts: number): Duration.Duration =>
  Duration.min(Duration.seconds(2 ** Math.max(1, failedAttempts)), LONGEST_WAIT)
