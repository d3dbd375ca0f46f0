import { Effect, Layer, Schedule } from "effect"
import { SWEEP_INTERVAL } from "./policy.ts"
import { VerificationCodes } from "./VerificationCodes.ts"

/**
 * Runs the retention sweep of verification codes every 10 minutes (spec 1, Retention) for as
 * long as the layer lives. A failed sweep is logged and the next one runs on schedule.
 */
export const VerificationSweeperLive: Layer.Layer<never, never, VerificationCodes> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const codes = yield* VerificationCodes
    const sweepOnce = codes.sweep.pipe(
      Effect.tap((swept) => Effect.logDebug("verification codes swept", swept)),
      Effect.catchAllCause((cause) => Effect.logWarning("verification code sweep failed", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(sweepOnce, Schedule.spaced(SWEEP_INTERVAL)))
  })
)
