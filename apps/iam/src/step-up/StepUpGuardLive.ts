import { HttpServerRequest } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import { now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { STEP_UP_HEADER, type StepUpDemand, StepUpGuard } from "../auth/StepUpGuard.ts"
import { StepUpExpired, StepUpMismatch, StepUpRequired, StepUpUsed } from "../auth/stepUpErrors.ts"
import { type StepUpBinding, type StoredStepUpToken, StepUpTokensRepo } from "./StepUpTokensRepo.ts"

const required = (demand: StepUpDemand) =>
  new StepUpRequired({
    message: `This action needs a step-up token for ${demand.action} in the X-Step-Up-Token header.`,
    hint: "POST /api/v1/step-up/challenges with this action and resource, then verify the code you receive."
  })

const mismatch = () =>
  new StepUpMismatch({
    message: "This step-up token was not minted for you, this action, this resource and this application.",
    hint: "Ask for a step-up token for exactly this action and resource."
  })

const bindingOf = (token: StoredStepUpToken): StepUpBinding => ({
  identityUuid: token.identity_uuid,
  action: token.action,
  resourceId: token.resource_id,
  applicationId: token.application_id
})

const sameBinding = (a: StepUpBinding, b: StepUpBinding) =>
  a.identityUuid === b.identityUuid && a.action === b.action && a.resourceId === b.resourceId &&
  a.applicationId === b.applicationId

/** Why a token that could not be spent was refused: its binding first, then its use, then its time. */
const refusalFor = (found: Option.Option<StoredStepUpToken>, wanted: StepUpBinding) => {
  if (Option.isNone(found) || !sameBinding(bindingOf(found.value), wanted)) return mismatch()
  return found.value.used
    ? new StepUpUsed({ message: "This step-up token was already used; each one serves a single action.", hint: "Step up again." })
    : new StepUpExpired({ message: "This step-up token has expired; they last 5 minutes.", hint: "Step up again." })
}

/** StepUpGuard over the stored tokens: the `sup_` token of the request is spent in the caller's transaction. */
export const StepUpGuardLive = Layer.effect(
  StepUpGuard,
  Effect.map(StepUpTokensRepo, (tokens) => ({
    spend: (demand) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const identity = yield* CurrentIdentity
        const token = request.headers[STEP_UP_HEADER]
        if (token === undefined || token === "") return yield* required(demand)
        const digest = sha256Hex(token)
        const wanted: StepUpBinding = {
          identityUuid: identity.uuid,
          action: demand.action,
          resourceId: demand.resourceId,
          applicationId: demand.applicationId ?? null
        }
        const at = yield* now
        if (yield* tokens.spend(digest, wanted, at)) return
        return yield* refusalFor(yield* tokens.find(digest), wanted)
      })
  }))
).pipe(Layer.provide(StepUpTokensRepo.Default))
