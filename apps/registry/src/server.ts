import { idempotentRequests, IdempotencyStore, sealedAnswers } from "@platform/idempotency"
import { RateLimiter } from "@platform/rate-limit"
import { serveHttpApi } from "@platform/service"
import { Effect, Layer } from "effect"
import { RegistryApi } from "./api.ts"
import { AppsLive } from "./apps/Http.ts"
import { Authenticator } from "./auth/Authenticator.ts"
import { AuthorsLive } from "./authors/Http.ts"
import { InvitesLive } from "./invites/Http.ts"
import { BearersLive } from "./auth/Bearer.ts"
import { RegistryConfig } from "./config.ts"
import { SecretsAtRest } from "./SecretsAtRest.ts"
import { DiscoveryLive } from "./discovery/Http.ts"
import { requestLimits } from "./limits/requestLimits.ts"
import { MeLive } from "./me/Http.ts"
import { DeliveryLive, ReleasesLive } from "./releases/Http.ts"
import { ReleaseResolverLive } from "./releases/ReleaseResolverLive.ts"
import { SearchLive } from "./search/Http.ts"
import { ServiceLive } from "./service/Http.ts"
import { SigningLive } from "./signing/Http.ts"
import { PackagesLive } from "./packages/Http.ts"
import { TargetsLive } from "./targets/Http.ts"
import { registryVersioning } from "./versions.ts"

/**
 * Every area, each providing its own services: left are the settings, the database, the stores of
 * layers.ts, accounts (AccountsDirectory, AccountsApps) and accounts' token verifier. The bearer middlewares are
 * shared by every area; discovery's MCP tool resolve_release plugs into release resolution (ReleaseResolver).
 */
export const RegistryHandlers = Layer.mergeAll(
  ServiceLive,
  MeLive,
  SearchLive,
  AppsLive,
  AuthorsLive,
  InvitesLive,
  TargetsLive,
  PackagesLive,
  ReleasesLive,
  DeliveryLive,
  SigningLive,
  DiscoveryLive
).pipe(
  Layer.provide(ReleaseResolverLive),
  Layer.provide(BearersLive),
  Layer.provide(Authenticator.Default)
)

/** The registry API served the platform's way (see serveHttpApi), with spec 2's envelope, limits and idempotency. */
export const RegistryServer = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* RegistryConfig
  return serveHttpApi({
    name: "registry",
    api: RegistryApi,
    handlers: RegistryHandlers,
    versioning: registryVersioning,
    settings: config,
    envelope: "complete",
    admit: requestLimits(yield* RateLimiter, { ...config.rateLimits, trustProxy: config.trustProxy }),
    around: idempotentRequests(yield* IdempotencyStore, {
      trustProxy: config.trustProxy,
      minKeyLength: 8,
      // Answers may hold a new app secret: sealed at rest like every other secret.
      sealing: sealedAnswers(yield* SecretsAtRest, "idempotent_answer")
    })
  })
})).pipe(Layer.provide(SecretsAtRest.Default))
