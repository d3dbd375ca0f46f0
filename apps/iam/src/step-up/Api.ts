import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { errorResponse, RateLimited, strict } from "@platform/http"
import { Schema } from "effect"
import { ChallengePath, CodeAnswer, CodeChallengeView, CodeChannel, CodeRefusals } from "../challenges/CodeChallenge.ts"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpAction } from "../auth/StepUpGuard.ts"
import { PhoneVerificationUnavailable } from "../phone-verification/errors.ts"
import { CarbonRequired, ChannelNotVerified } from "./errors.ts"

const ResourceId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
const ApplicationId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export const StepUpRequest = strict(Schema.Struct({
  action: StepUpAction,
  resource_id: ResourceId.annotations({ description: "The one resource the action is taken on" }),
  channel: CodeChannel.annotations({ description: "Which verified channel of the Carbon the code goes to (its primary one)" }),
  application_id: Schema.optional(
    ApplicationId.annotations({ description: "For an action taken for an application: the token is refused for any other" })
  )
})).annotations({ identifier: "StepUpRequest" })

/** What a step-up token is good for; it travels as `X-Step-Up-Token` beside the bearer. */
export const StepUpToken = Schema.Struct({
  step_up_token: Schema.String.annotations({ description: "sup_…: one use, 5 minutes" }),
  action: StepUpAction,
  resource_id: Schema.String,
  application_id: Schema.NullOr(Schema.String),
  expires_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "StepUpToken" })

export class StepUpApi extends HttpApiGroup.make("stepUp")
  .add(
    HttpApiEndpoint.post("createChallenge", "/api/v1/step-up/challenges")
      .setPayload(StepUpRequest)
      .addSuccess(CodeChallengeView, { status: 201 })
      .addError(errorResponse(CarbonRequired))
      .addError(errorResponse(ChannelNotVerified))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(AccountsUnavailable))
      .addError(errorResponse(PhoneVerificationUnavailable))
      .annotate(
        OpenApi.Description,
        "Sends a code to the caller's verified email or phone to confirm one action on one resource. Carbons only " +
          "(403 carbon_required for a Silicon). A new step-up challenge replaces the caller's last one."
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/api/v1/step-up/challenges/:session_id/verify")
      .setPath(ChallengePath)
      .setPayload(CodeAnswer)
      .addSuccess(StepUpToken)
      .addError(CodeRefusals)
      .annotate(
        OpenApi.Description,
        "A right code answers a step-up token bound to the caller, the action, the resource (and the application): " +
          "send it as X-Step-Up-Token with that action's request within 5 minutes; it is used up there."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Step-up")
{}
