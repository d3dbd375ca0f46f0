import { Duration, Effect, Layer, Schedule } from "effect"
import { doesSharedChores } from "./workerNumber.ts"

/** Retention sweeps run every 10 minutes (spec 1, Retention; every service keeps the same rhythm). */
export const SWEEP_INTERVAL = Duration.minutes(10)

/**
 * Runs `sweep` at once and then every 10 minutes for as long as the layer lives. A failed
 * sweep is logged and the next one runs on schedule. Of several workers behind one port,
 * worker 1 alone sweeps: the sweeps are safe side by side (as between separate processes on
 * one database), but N of them would only repeat the same deletes.
 */
export const periodicSweep = <A, E, R>(name: string, sweep: Effect.Effect<A, E, R>): Layer.Layer<never, never, R> =>
  !doesSharedChores() ? Layer.empty : Layer.scopedDiscard(
    Effect.forkScoped(
      sweep.pipe(
        Effect.tap((swept) => Effect.logDebug({ event: "sweep", name, swept })),
        Effect.catchAllCause((cause) => Effect.logWarning({ event: "sweep_failed", name }, cause)),
        Effect.repeat(Schedule.spaced(SWEEP_INTERVAL))
      )
    )
  )
