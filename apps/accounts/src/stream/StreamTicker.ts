import { Deferred, type Duration, Effect, FiberHandle, FiberId, type Scope } from "effect"

/** What wakes a waiting stream: its next look, or the server shutting down (every later wait answers it too). */
export type Tick = "look" | "shutdown"

export interface StreamTicker {
  /** The stream's membership for as long as it runs: the ticker runs while it has members. */
  readonly member: <A, E, R>(stream: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Until the next tick. */
  readonly next: Effect.Effect<Tick>
  /** Whether every member is waiting for the next tick (none is in the middle of a look). */
  readonly allWaiting: Effect.Effect<boolean>
  /** The server is shutting down: every wait, present and future, answers "shutdown". */
  readonly stop: Effect.Effect<void>
}

/**
 * One clock for every open stream of this process: every `every` it wakes them all at once. A stream
 * waits on the shared tick rather than on a timer of its own, so an idle open stream holds no sleeping
 * fibers, only its place in the tick's list. The ticker runs (a fiber of the caller's scope) only while
 * streams are open.
 */
export const makeStreamTicker = (every: Duration.Duration): Effect.Effect<StreamTicker, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ticking = yield* FiberHandle.make<void>()
    let current = Deferred.unsafeMake<Tick>(FiberId.none)
    /** Counts the ticks, so that a wait given up after its tick came does not count against the next one. */
    let generation = 0
    let members = 0
    let waiting = 0
    let shutDown = false

    const tickLoop: Effect.Effect<void> = Effect.gen(function*() {
      for (;;) {
        yield* Effect.sleep(every)
        if (shutDown) return
        const tick = current
        current = Deferred.unsafeMake<Tick>(FiberId.none)
        generation++
        waiting = 0
        yield* Deferred.succeed(tick, "look")
      }
    })

    // Joining happens where interruption is off (a stream's acquire); the ticker itself stays interruptible.
    const join = Effect.suspend(() => {
      members++
      return Effect.asVoid(FiberHandle.run(ticking, Effect.interruptible(tickLoop), { onlyIfMissing: true }))
    })
    const leave = Effect.suspend(() => {
      members--
      return members === 0 ? FiberHandle.clear(ticking) : Effect.void
    })

    const next: Effect.Effect<Tick> = Effect.suspend(() => {
      if (shutDown) return Effect.succeed<Tick>("shutdown")
      const tick = current
      const at = generation
      waiting++
      return Deferred.await(tick).pipe(Effect.onInterrupt(() =>
        Effect.sync(() => {
          if (generation === at) waiting--
        })
      ))
    })

    return {
      member: (stream) => Effect.acquireUseRelease(join, () => stream, () => leave),
      next,
      allWaiting: Effect.sync(() => waiting === members),
      stop: Effect.suspend(() => {
        shutDown = true
        return Deferred.succeed(current, "shutdown")
      })
    }
  })
