import { idempotentRequests, IdempotencyStore } from "@platform/idempotency"
import { serveHttpApi } from "@platform/service"
import { SigningKeys } from "@platform/signing-keys"
import { Effect, Layer } from "effect"
import { AccountIdsLive } from "./accounts/Http.ts"
import { AccountsApi } from "./api.ts"
import { AppsLive, AppsPublicLive, InternalAppsLive, OwnedAppsLive } from "./app-management/Http.ts"
import { CliLoginLive } from "./cli-login/Http.ts"
import { AccountsConfig } from "./config.ts"
import { EmailsLive, PhonesLive } from "./contacts/Http.ts"
import { DeviceApprovalLive } from "./device/ApprovalHttp.ts"
import { DeviceCodeGrantLive } from "./device/deviceCodeGrant.ts"
import { DeviceAuthorizationLive } from "./device/Http.ts"
import { discoveryDocuments, OPENID_CONFIGURATION_PATH } from "./discovery/DiscoveryDocuments.ts"
import { DiscoveryLive } from "./discovery/Http.ts"
import { AuthorizeLive } from "./flows/AuthorizeHttp.ts"
import { FlowsLive } from "./flows/Http.ts"
import { ProvidersLive } from "./flows/ProviderCallbackHttp.ts"
import { MeLive } from "./me/Http.ts"
import { OAuthLive } from "./oauth/Http.ts"
import { OAuthGrantsLive } from "./oauth/OAuthGrants.ts"
import { ReportsLive } from "./reports/Http.ts"
import { ServiceLive } from "./service/Http.ts"
import { SessionsLive } from "./sessions/Http.ts"
import { JwtBearerGrantLive } from "./silicons/assertions/jwtBearerGrant.ts"
import { CustodianRequestsLive, MySiliconsLive } from "./silicons/CustodyHttp.ts"
import { SiliconsLive } from "./silicons/Http.ts"
import { SiliconIdentityLive } from "./silicons/identity/Http.ts"
import { SiliconKeysLive } from "./silicons/keys/Http.ts"
import { MeViewsLive } from "./silicons/MeViewsLive.ts"
import { UserinfoLive } from "./userinfo/Http.ts"
import { accountsVersioning } from "./versions.ts"

/**
 * The token endpoint's grants: oauth's own, with the ones device and silicons add, and the
 * account views oauth's Token responses carry (oauth/ imports neither area).
 */
const TokenGrantsLive = JwtBearerGrantLive.pipe(
  Layer.provide(DeviceCodeGrantLive),
  Layer.provide(OAuthGrantsLive),
  Layer.provide(MeViewsLive)
)

/**
 * Every area's handlers, each providing its own services; what is left is what every area shares
 * (settings, database, the stores of layers.ts). A service with state per process (AccessTokens,
 * AppCredentials, ProviderRegistry) is provided by areas as the same `X.Default` value, which one
 * build makes once.
 */
export const AccountsHandlers = Layer.mergeAll(
  ServiceLive,
  DiscoveryLive,
  ReportsLive,
  SessionsLive,
  AccountIdsLive,
  OAuthLive.pipe(Layer.provide(TokenGrantsLive)),
  AuthorizeLive,
  FlowsLive,
  ProvidersLive,
  UserinfoLive,
  CliLoginLive,
  DeviceAuthorizationLive,
  DeviceApprovalLive,
  MeLive,
  EmailsLive,
  PhonesLive,
  SiliconsLive,
  CustodianRequestsLive,
  MySiliconsLive,
  AppsLive,
  AppsPublicLive,
  OwnedAppsLive,
  InternalAppsLive,
  SiliconKeysLive,
  SiliconIdentityLive
)

/**
 * The accounts API served the platform's way (see serveHttpApi) on the
 * configured host and port, with idempotent requests, and the discovery
 * documents answered from memory.
 */
export const AccountsServer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const idempotency = yield* IdempotencyStore
    const documents = discoveryDocuments(config.publicUrl, yield* SigningKeys)
    return serveHttpApi({
      name: "accounts",
      api: AccountsApi,
      handlers: AccountsHandlers,
      versioning: accountsVersioning,
      settings: config,
      publicDocuments: [documents.openIdConfiguration, documents.jwks],
      around: idempotentRequests(idempotency, { trustProxy: config.trustProxy }),
      links: [{ href: OPENID_CONFIGURATION_PATH, label: "OpenID Connect discovery" }]
    })
  })
)
