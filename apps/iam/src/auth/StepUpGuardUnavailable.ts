import { Effect, Layer } from "effect"
import { StepUpRequired } from "./stepUpErrors.ts"
import { StepUpGuard } from "./StepUpGuard.ts"

/**
 * Until step-up challenges are served (the login area), no step-up token can be had, so every action that
 * needs one is refused as needing it. Replaced by the step-up Live layer when it lands.
 */
export const StepUpGuardUnavailable = Layer.succeed(StepUpGuard, {
  spend: () =>
    Effect.fail(new StepUpRequired({ message: "This action needs a step-up token, and this server does not issue them yet." }))
})
