import { randomToken, sha256Hex } from "@platform/crypto"
import { now } from "@platform/service"
import { Duration, Effect } from "effect"
import { LIFETIMES } from "../lifetimes.ts"
import { type StepUpBinding, StepUpTokensRepo } from "./StepUpTokensRepo.ts"

/** `sup_` plus 256 random bits (decisions.md, "Step-up"). */
export const newStepUpToken = () => randomToken("sup_")

/** Minting step-up tokens: shown once, stored as a digest, 5 minutes. */
export class StepUpTokens extends Effect.Service<StepUpTokens>()("iam/StepUpTokens", {
  effect: Effect.map(StepUpTokensRepo, (repo) => ({
    /** A token for exactly this identity, action, resource and application, after a right code of `challengeId`. */
    mint: (binding: StepUpBinding, challengeId: string) =>
      Effect.gen(function*() {
        const token = newStepUpToken()
        const at = yield* now
        const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.stepUpToken))
        yield* repo.insert({ ...binding, digest: sha256Hex(token), challengeId, at, expiresAt })
        return { token, expiresAt }
      })
  })),
  dependencies: [StepUpTokensRepo.Default]
}) {}
