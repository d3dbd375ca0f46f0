import type { HttpServerRequest } from "@effect/platform"
import { Context, type Effect, Schema } from "effect"
import type { CurrentIdentity } from "./CurrentIdentity.ts"
import type { StepUpExpired, StepUpMismatch, StepUpRequired, StepUpUsed } from "./stepUpErrors.ts"

/** Spec 2, Authentication: the actions that need a step-up token beside the bearer. */
export const StepUpAction = Schema.Literal(
  "account.session_revoke",
  "account.sessions_revoke_all",
  "organization.transfer_ownership",
  "organization.authorization_change",
  "organization.sso_change",
  "organization.silicon_webhook.redirect",
  "application.client_secret.rotate",
  "application.webhook_secret.rotate",
  "application.webhook.approve",
  "silicon.rotate_token",
  "platform_admin.application_review",
  "platform_admin.sso_entitlement"
)
export type StepUpAction = typeof StepUpAction.Type

/** The header a step-up token travels in, beside `Authorization: Bearer`. */
export const STEP_UP_HEADER = "x-step-up-token"

export type StepUpRefusal = StepUpRequired | StepUpExpired | StepUpUsed | StepUpMismatch

/** What an action needing step-up asks: a `sup_` token for this action, on this resource (and application, when minted for one). */
export interface StepUpDemand {
  readonly action: StepUpAction
  readonly resourceId: string
  /** Set when the action is taken for an application: a token minted for another application is refused. */
  readonly applicationId?: string
}

/**
 * Spends the request's `X-Step-Up-Token` for one action: it must have been minted for the current
 * identity, this action, this resource (and application), be unexpired (5 minutes) and unused; it is
 * used up by this call, in the caller's transaction.
 */
export class StepUpGuard extends Context.Tag("iam/StepUpGuard")<StepUpGuard, {
  readonly spend: (
    demand: StepUpDemand
  ) => Effect.Effect<void, StepUpRefusal, HttpServerRequest.HttpServerRequest | CurrentIdentity>
}>() {}
