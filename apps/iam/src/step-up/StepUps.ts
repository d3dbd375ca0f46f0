import { AccountsDirectory } from "@platform/accounts-identity-api"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Schema } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { Unauthenticated } from "../auth/errors.ts"
import { StepUpAction } from "../auth/StepUpGuard.ts"
import type { CodeChannel } from "../challenges/CodeChallenge.ts"
import { CodeChallenges } from "../challenges/CodeChallenges.ts"
import { CarbonRequired, ChannelNotVerified } from "./errors.ts"
import { StepUpTokens } from "./StepUpTokens.ts"

export const stepUpChallengesPerIdentity: RateLimitRule = {
  id: "iam_step_up_challenges_identity",
  operation: "POST /api/v1/step-up/challenges",
  limit: 20,
  window: "10 minutes",
  per: "identity"
}

/** What a step-up challenge keeps for the token its right code mints. */
const StepUpDetails = Schema.Struct({
  action: StepUpAction,
  resource_id: Schema.String,
  application_id: Schema.NullOr(Schema.String)
})
const decodeDetails = Schema.decodeUnknown(StepUpDetails)

export interface StepUpAsked {
  readonly action: StepUpAction
  readonly resource_id: string
  readonly channel: CodeChannel
  readonly application_id?: string | undefined
}

const wordsOf = (action: StepUpAction) => action.replace(/[._]/g, " ")

/** Step-up by a code to one of the Carbon's verified channels, answered with a `sup_` token. */
export class StepUps extends Effect.Service<StepUps>()("iam/StepUps", {
  effect: Effect.gen(function*() {
    const directory = yield* AccountsDirectory
    const challenges = yield* CodeChallenges
    const tokens = yield* StepUpTokens
    const limiter = yield* RateLimiter

    return {
      start: (caller: AuthenticatedIdentity, asked: StepUpAsked, clientAddress: string) =>
        Effect.gen(function*() {
          const carbonOnly = new CarbonRequired({
            message: "Silicons do not step up: an action that needs step-up is taken by a Carbon.",
            hint: "Ask the Silicon's custodian to take this action."
          })
          if (caller.kind !== "carbon") return yield* carbonOnly
          yield* enforceRateLimit(limiter, stepUpChallengesPerIdentity, caller.uuid)
          const identity = yield* directory.byUuid(caller.uuid).pipe(
            Effect.catchTag("AccountNotFound", () => Effect.succeed(undefined))
          )
          if (identity === undefined || identity.status !== "active") {
            return yield* new Unauthenticated({ message: "This identity is no longer active.", hint: "Log in again." })
          }
          if (identity.kind !== "carbon") return yield* carbonOnly
          const address = asked.channel === "email" ? identity.verified_emails[0] : identity.verified_phones[0]
          if (address === undefined) {
            return yield* new ChannelNotVerified({
              message: `You have no verified ${asked.channel === "email" ? "email address" : "phone number"}.`,
              hint: `Step up with your ${asked.channel === "email" ? "phone" : "email"} instead.`
            })
          }
          return yield* challenges.open({
            purpose: "step_up",
            subject: `step_up:${caller.uuid}`,
            identityUuid: caller.uuid,
            ...(asked.channel === "email" ? { email: address } : { phone: address }),
            details: { action: asked.action, resource_id: asked.resource_id, application_id: asked.application_id ?? null },
            clientAddress,
            message: (code) => ({
              subject: "Confirm a sensitive action",
              text: `Your code to confirm ${wordsOf(asked.action)} is ${code}. It expires in 10 minutes. ` +
                "If you did not ask for it, someone may be using your session: log out everywhere."
            })
          })
        }),
      /** A right code of the caller's own challenge mints the token, in one transaction with the code's use. */
      verify: (caller: AuthenticatedIdentity, sessionId: string, code: string, clientAddress: string) =>
        challenges.answer({ sessionId, purpose: "step_up", code, clientAddress, identityUuid: caller.uuid }, (challenge) =>
          Effect.gen(function*() {
            const details = yield* Effect.orDie(decodeDetails(challenge.details))
            const minted = yield* tokens.mint({
              identityUuid: caller.uuid,
              action: details.action,
              resourceId: details.resource_id,
              applicationId: details.application_id
            }, challenge.id)
            return {
              step_up_token: minted.token,
              action: details.action,
              resource_id: details.resource_id,
              application_id: details.application_id,
              expires_at: minted.expiresAt.toISOString()
            }
          }))
    }
  }),
  dependencies: [CodeChallenges.Default, StepUpTokens.Default]
}) {}
