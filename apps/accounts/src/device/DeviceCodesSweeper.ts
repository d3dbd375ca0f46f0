import { Clock, Effect, Layer, Schedule } from "effect"
import { DeviceCodesRepo } from "./DeviceCodesRepo.ts"
import { SWEEP_INTERVAL } from "./policy.ts"

/**
 * Deletes device codes 7 days after they expire, every 10 minutes (spec 1, Retention), for as
 * long as the layer lives. A failed sweep is logged and the next one runs on schedule.
 */
export const DeviceCodesSweeperLive: Layer.Layer<never, never, DeviceCodesRepo> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const codes = yield* DeviceCodesRepo
    const sweepOnce = Clock.currentTimeMillis.pipe(
      Effect.flatMap((millis) => codes.sweep(new Date(millis))),
      Effect.tap((swept) => Effect.logDebug("device codes swept", swept)),
      Effect.catchAllCause((cause) => Effect.logWarning("device code sweep failed", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(sweepOnce, Schedule.spaced(SWEEP_INTERVAL)))
  })
)
