import { HttpApiBuilder } from "@effect/platform"
import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../../api.ts"
import { requireCarbon } from "../../auth/requireCarbon.ts"
import { requireSilicon } from "../requireSilicon.ts"
import { SiliconNotFound } from "../errors.ts"
import { SiliconsRepo } from "../SiliconsRepo.ts"
import { findNamedSilicon } from "./findNamedSilicon.ts"
import { IDENTITY_TTL_DEFAULT_SECONDS } from "./IdentityToken.ts"
import { IdentityTokens } from "./IdentityTokens.ts"
import { AccountsRepo } from "../../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../../auth/AccountAuth.ts"

const issuesPerSilicon: RateLimitRule = {
  id: "identity_tokens",
  operation: "POST /v1/me/identity-tokens",
  limit: 60,
  window: "1 minute",
  per: "Silicon"
}

export const SiliconIdentityLive = HttpApiBuilder.group(AccountsApi, "siliconIdentity", (handlers) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const identityTokens = yield* IdentityTokens
    const silicons = yield* SiliconsRepo

    /** The Silicon `{id}` names, when the caller is its custodian; anyone else learns nothing of it. */
    const inCustody = (id: string) =>
      Effect.gen(function*() {
        const carbon = yield* requireCarbon
        const named = yield* findNamedSilicon(id)
        const silicon = Option.isSome(named) ? yield* silicons.findInCustody(carbon.uuid, named.value.uuid) : named
        if (Option.isNone(silicon)) {
          return yield* new SiliconNotFound({ message: "No Silicon with this id is in your custody." })
        }
        return silicon.value
      })

    return handlers
      .handle("issue", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          const silicon = yield* requireSilicon
          yield* enforceRateLimit(limiter, issuesPerSilicon, silicon.uuid)
          return yield* identityTokens.issue(silicon, payload.audience, payload.ttl_seconds ?? IDENTITY_TTL_DEFAULT_SECONDS)
        }))
      .handle("audiences", ({ path }) =>
        Effect.map(inCustody(path.id), (silicon) => ({ audiences: silicon.identity_audiences })))
      .handle("setAudiences", ({ path, payload }) =>
        Effect.gen(function*() {
          const silicon = yield* inCustody(path.id)
          const audiences = [...new Set(payload.audiences)]
          yield* silicons.setIdentityAudiences(silicon.uuid, audiences)
          return { audiences }
        }))
  })).pipe(Layer.provide([IdentityTokens.Default, AccountsRepo.Default, SiliconsRepo.Default, AccountAuthLive]))
