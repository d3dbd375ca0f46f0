import { Clock, Effect } from "effect"

const liveClock = Clock.make()

/**
 * Runs with the real clock even when a test has installed `TestClock`: the waits and
 * deadlines in this package are about real sockets and processes, which a test clock
 * that nobody advances would turn into hangs.
 */
export const inRealTime = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withClock(self, liveClock)
