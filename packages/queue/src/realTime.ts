import { Clock, Duration, Effect } from "effect"

const liveClock = Clock.make()

/**
 * Waits in real time even under `TestClock`: a worker's polling and attempt deadlines are
 * about a real database and real sockets, while what is due is still decided with the
 * ambient Clock (so tests move the retry schedule).
 */
export const sleepInRealTime = (duration: Duration.DurationInput): Effect.Effect<void> =>
  Effect.withClock(Effect.sleep(duration), liveClock)

/** Fails with `onTimeout()` when `self` has not finished within `duration` of real time, interrupting it. */
export const timeoutInRealTime = <E2>(duration: Duration.DurationInput, onTimeout: () => E2) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
  Effect.raceFirst(
    Effect.interruptible(self),
    Effect.interruptible(Effect.zipRight(sleepInRealTime(duration), Effect.failSync(onTimeout)))
  )
