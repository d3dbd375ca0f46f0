import { Duration, Effect, Option, type Schedule, ScheduleDecision, ScheduleIntervals } from "effect"

/**
 * The wait before the next attempt after `failedAttempts` failed ones, or none when the
 * schedule has ended: the job is then given up. The schedule is stepped once per failed
 * attempt on its own timeline (starting at 0 and moving on by each wait), so the answer
 * depends only on the count: `Schedule.recurs(n)` allows n retries, and `Schedule.elapsed`
 * is the sum of the waits so far (time since the first failure). Schedules of clock times
 * (cron, windows) do not fit.
 */
export const delayBeforeRetry = (
  schedule: Schedule.Schedule<unknown>,
  failedAttempts: number
): Effect.Effect<Option.Option<Duration.Duration>> =>
  Effect.gen(function*() {
    let state: unknown = schedule.initial
    let now = 0
    let delay = Option.none<Duration.Duration>()
    for (let step = 0; step < failedAttempts; step++) {
      const [next, , decision] = yield* schedule.step(now, undefined, state)
      if (ScheduleDecision.isDone(decision)) return Option.none()
      const at = ScheduleIntervals.start(decision.intervals)
      delay = Option.some(Duration.millis(at - now))
      state = next
      now = at
    }
    return delay
  })
