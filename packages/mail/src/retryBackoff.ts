import { Duration, Schedule } from "effect"

/** The spec's limit for email and SMS sending: at most 8 attempts. */
export const DEFAULT_MAX_ATTEMPTS = 8

const LONGEST_WAIT = Duration.minutes(5)

/**
 * The waits after failed attempts: 2 s, 4 s, 8 s, … doubling, at most 5 minutes; the message
 * is given up after `maxAttempts` attempts in all.
 */
export const mailRetrySchedule = (maxAttempts: number): Schedule.Schedule<unknown> =>
  Schedule.exponential(Duration.seconds(2)).pipe(
    Schedule.modifyDelay((_, delay) => Duration.min(delay, LONGEST_WAIT)),
    Schedule.intersect(Schedule.recurs(maxAttempts - 1))
  )
