import type { Layer } from "effect"
import { Effect } from "effect"
import { periodicSweep } from "@platform/service"
import { VerificationCodes } from "./VerificationCodes.ts"

/** Deletes verification challenges 1 day after they expire, and idle wrong-code streaks. */
export const VerificationSweeperLive: Layer.Layer<never, never, VerificationCodes> = periodicSweep(
  "verification_codes",
  Effect.flatMap(VerificationCodes, (codes) => codes.sweep)
)
