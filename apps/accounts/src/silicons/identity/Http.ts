import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer } from "effect"
import { AccountsApi } from "../../api.ts"
import { requireSilicon } from "../requireSilicon.ts"
import { namedSiliconInCustody } from "../namedSiliconInCustody.ts"
import { SiliconsRepo } from "../SiliconsRepo.ts"
import { IDENTITY_TTL_DEFAULT_SECONDS } from "./IdentityToken.ts"
import { IdentityTokens } from "./IdentityTokens.ts"
import { AccountsRepo } from "../../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../../auth/AccountAuth.ts"
import { compiledGroup } from "@platform/service"

const issuesPerSilicon: RateLimitRule = {
  id: "identity_tokens",
  operation: "POST /v1/me/identity-tokens",
  limit: 60,
  window: "1 minute",
  per: "Silicon"
}

export const SiliconIdentityLive = compiledGroup(AccountsApi, "siliconIdentity", (handlers) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const identityTokens = yield* IdentityTokens
    const silicons = yield* SiliconsRepo

    const inCustody = (id: string) => namedSiliconInCustody(id).pipe(Effect.provideService(SiliconsRepo, silicons))

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
