import { Effect, Layer } from "effect"
import { StepUpGuard } from "./StepUpGuard.ts"
import { StepUpRequired } from "./stepUpErrors.ts"

/**
 * Until the step-up area (`POST /api/v1/step-up/challenges`) is merged: no step-up token can be
 * minted, so every action that needs one is refused with step_up_required. Replaced by that
 * area's StepUpGuard Live in server.ts.
 */
export const StepUpUnavailable = Layer.succeed(StepUpGuard, {
  spend: () =>
    Effect.fail(
      new StepUpRequired({ message: "This action needs a step-up token in X-Step-Up-Token, and none can be minted yet." })
    )
})
