import { idempotentRequests, IdempotencyStore, sealedAnswers } from "@platform/idempotency"
import { serveHttpApi } from "@platform/service"
import { Effect, Layer } from "effect"
import { AccountIdsLive } from "./accounts/Http.ts"
import { AccountSiteLive } from "./account-site/Http.ts"
import { AccountsApi } from "./api.ts"
import { AppAccessLive } from "./app-access/Http.ts"
import { AppManagementLive } from "./app-management/Http.ts"
import { SigninConfigPreviewLive } from "./signin-preview/Http.ts"
import { CliLoginLive } from "./cli-login/Http.ts"
import { AccountsConfig } from "./config.ts"
import { ContactsLive } from "./contacts/Http.ts"
import { DeviceCodeGrantLive } from "./device/deviceCodeGrant.ts"
import { DeviceLive } from "./device/Http.ts"
import { discoveryFromMemory, DiscoveryLive } from "./discovery/Http.ts"
import { FederatedGrantsLive } from "./federations/federatedGrants.ts"
import { FederationsLive } from "./federations/Http.ts"
import { FlowsLive } from "./flows/Http.ts"
import { HistoryLive } from "./history/Http.ts"
import { ImportsLive } from "./imports/Http.ts"
import { LookupsLive } from "./lookups/Http.ts"
import { MeLive } from "./me/Http.ts"
import { PhotosLive } from "./profile/Http.ts"
import { OAuthLive } from "./oauth/Http.ts"
import { OAuthGrantsLive } from "./oauth/OAuthGrants.ts"
import { ReportsLive } from "./reports/Http.ts"
import { TelemetryLive } from "./telemetry/Http.ts"
import { IdentitiesLive } from "./identities/Http.ts"
import { InternalIdentitiesLive } from "./internal-identities/Http.ts"
import { SecretsAtRest } from "./SecretsAtRest.ts"
import { ServiceLive } from "./service/Http.ts"
import { ShortLivedTokensLive } from "./short-lived-tokens/Http.ts"
import { ShortLivedTokenGrantLive } from "./short-lived-tokens/shortLivedTokenGrant.ts"
import { ProofsLive } from "./proofs/Http.ts"
import { SessionsLive } from "./sessions/Http.ts"
import { JwtBearerGrantLive } from "./silicons/assertions/jwtBearerGrant.ts"
import { SiliconsLive } from "./silicons/Http.ts"
import { SiteLive } from "./site/Http.ts"
import { requestErrorPage } from "./site/layout.ts"
import { EventStreamLive } from "./stream/Http.ts"
import { MeViewsLive } from "./silicons/MeViewsLive.ts"
import { UserinfoLive } from "./userinfo/Http.ts"
import { SubscriptionsLive } from "./subscriptions/Http.ts"
import { accountsVersioning } from "./versions.ts"
import { WebhooksLive } from "./webhooks/Http.ts"

/** The token endpoint's grants: oauth's own, device's, silicons', short-lived tokens', federations' (outside tokens in front of silicons' jwt-bearer). oauth's need silicons' account views (MeViews). */
const TokenGrantsLive = FederatedGrantsLive.pipe(
  Layer.provide(ShortLivedTokenGrantLive),
  Layer.provide(JwtBearerGrantLive),
  Layer.provide(DeviceCodeGrantLive),
  Layer.provide(OAuthGrantsLive)
)

/** Every area, each providing its own services: left are the settings, the database and the stores of layers.ts. */
export const AccountsHandlers = Layer.mergeAll(
  ServiceLive, DiscoveryLive, ReportsLive, SessionsLive, AccountIdsLive, UserinfoLive, CliLoginLive,
  MeLive, PhotosLive, ContactsLive, FlowsLive, DeviceLive, SiliconsLive, AppManagementLive, SubscriptionsLive, WebhooksLive, EventStreamLive, SiteLive,
  AccountSiteLive, SigninConfigPreviewLive, AppAccessLive, HistoryLive, LookupsLive, ShortLivedTokensLive, ProofsLive,
  FederationsLive, ImportsLive, TelemetryLive, IdentitiesLive, InternalIdentitiesLive,
  OAuthLive.pipe(Layer.provide(TokenGrantsLive), Layer.provide(MeViewsLive))
)

/** The accounts API served the platform's way (see serveHttpApi), with idempotent requests (answers sealed at rest). */
export const AccountsServer = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AccountsConfig
  return serveHttpApi({
    name: "accounts",
    api: AccountsApi,
    handlers: AccountsHandlers,
    versioning: accountsVersioning,
    settings: config,
    around: idempotentRequests(yield* IdempotencyStore, {
      trustProxy: config.trustProxy,
      sealing: sealedAnswers(yield* SecretsAtRest, "idempotent_answer")
    }),
    // GET / is the account site's (the account page or sign-in), not the kit's home page.
    ownHomePage: true,
    errorPage: requestErrorPage,
    ...(yield* discoveryFromMemory)
  })
})).pipe(Layer.provide(SecretsAtRest.Default))
