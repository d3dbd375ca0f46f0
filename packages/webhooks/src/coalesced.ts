import { Deferred, Effect, Exit, FiberId } from "effect"

/**
 * `lookup` with concurrent calls for one key sharing a single run: the deliveries of one pass to
 * one receiver read its target once. Nothing is kept once the run ends, so a later call (a later
 * pass, a retry) reads afresh — a rotated secret or a removed URL applies from the next pass.
 */
export const coalesced = <A, R>(lookup: (key: string) => Effect.Effect<A, never, R>) => {
  const inFlight = new Map<string, Deferred.Deferred<A>>()
  return (key: string): Effect.Effect<A, never, R> =>
    Effect.suspend(() => {
      const running = inFlight.get(key)
      if (running !== undefined) return Deferred.await(running)
      const result = Deferred.unsafeMake<A>(FiberId.none)
      inFlight.set(key, result)
      return lookup(key).pipe(
        Effect.onExit((exit) =>
          Effect.sync(() => inFlight.delete(key)).pipe(
            Effect.zipRight(Exit.isSuccess(exit) ? Deferred.succeed(result, exit.value) : Deferred.failCause(result, exit.cause))
          )
        )
      )
    })
}
