import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import { Effect } from "effect"
import { periodicSweep } from "@platform/service"
import { VerificationCodes } from "./VerificationCodes.ts"

/** Every 10 minutes, deletes verification challenges past the policy's retention after expiry, and idle wrong-code streaks. */
export const VerificationSweeperLive: Layer.Layer<never, never, VerificationCodes | SqlClient.SqlClient> = periodicSweep(
  "verification_codes",
  Effect.flatMap(VerificationCodes, (codes) => codes.sweep)
)
