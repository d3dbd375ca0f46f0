import { idempotentRequests, IdempotencyStore } from "@platform/idempotency"
import { serveHttpApi } from "@platform/service"
import { SigningKeys } from "@platform/signing-keys"
import { Effect, Layer } from "effect"
import { AccountIdsLive } from "./accounts/Http.ts"
import { AppCredentials } from "./apps/AppCredentials.ts"
import { AppOrAuthorLive } from "./app-management/AppOrAuthor.ts"
import { AppsRepo } from "./apps/AppsRepo.ts"
import { AppsLive, AppsPublicLive, InternalAppsLive, OwnedAppsLive } from "./app-management/Http.ts"
import { InternalAuthLive } from "./app-management/InternalAuth.ts"
import { SigninConfigUpdate } from "./apps/SigninConfigUpdate.ts"
import { AccountsRepo } from "./accounts/AccountsRepo.ts"
import { ContactsRepo } from "./accounts/ContactsRepo.ts"
import { IdsRepo } from "./accounts/IdsRepo.ts"
import { AccountsApi } from "./api.ts"
import { CliLoginLive } from "./cli-login/Http.ts"
import { EmailsLive, PhonesLive } from "./contacts/Http.ts"
import { DeviceApprovalLive } from "./device/ApprovalHttp.ts"
import { DeviceCodesRepo } from "./device/DeviceCodesRepo.ts"
import { DeviceAuthorizationLive } from "./device/Http.ts"
import { DeviceCodeGrantLive } from "./device/deviceCodeGrant.ts"
import { MeViewsLive } from "./me/MeViewsLive.ts"
import { MeLive } from "./me/Http.ts"
import { OAuthLive } from "./oauth/Http.ts"
import { OAuthGrantsLive } from "./oauth/OAuthGrants.ts"
import { AuthorizeLive } from "./flows/AuthorizeHttp.ts"
import { FlowsLive } from "./flows/Http.ts"
import { FlowCodeMoves } from "./flows/FlowCodeMoves.ts"
import { FlowEngine } from "./flows/FlowEngine.ts"
import { FlowProviderMoves } from "./flows/FlowProviderMoves.ts"
import { ProvidersLive } from "./flows/ProviderCallbackHttp.ts"
import { ProviderRegistry } from "./providers/ProviderRegistry.ts"
import { RoundTrips } from "./providers/RoundTrips.ts"
import { FlowsRepo } from "./flows/FlowsRepo.ts"
import { UserinfoLive } from "./userinfo/Http.ts"
import { TokenIssuer } from "./oauth/TokenIssuer.ts"
import { AppAccountsRepo } from "./oauth/AppAccountsRepo.ts"
import { AppSigninsRepo } from "./oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "./oauth/AppTokenIssuer.ts"
import { AuthorizationCodes } from "./oauth/AuthorizationCodes.ts"
import { AccessTokens } from "./oauth/AccessTokens.ts"
import { AccountAuthLive } from "./auth/AccountAuth.ts"
import { SigninsRepo } from "./oauth/SigninsRepo.ts"
import { AccountsConfig } from "./config.ts"
import { discoveryDocuments, OPENID_CONFIGURATION_PATH } from "./discovery/DiscoveryDocuments.ts"
import { DiscoveryLive } from "./discovery/Http.ts"
import { ReportsLive } from "./reports/Http.ts"
import { ServiceLive } from "./service/Http.ts"
import { SessionsLive } from "./sessions/Http.ts"
import { Custody } from "./silicons/Custody.ts"
import { CustodianRequestsRepo } from "./silicons/CustodianRequestsRepo.ts"
import { SiliconsLive } from "./silicons/Http.ts"
import { AssertionVerifier } from "./silicons/assertions/AssertionVerifier.ts"
import { JwtBearerGrantLive } from "./silicons/assertions/jwtBearerGrant.ts"
import { SiliconIdentityLive } from "./silicons/identity/Http.ts"
import { IdentityTokens } from "./silicons/identity/IdentityTokens.ts"
import { SiliconKeysLive } from "./silicons/keys/Http.ts"
import { SiliconKeys } from "./silicons/keys/SiliconKeys.ts"
import { CustodianRequestsLive, MySiliconsLive } from "./silicons/CustodyHttp.ts"
import { SiliconManagement } from "./silicons/SiliconManagement.ts"
import { SiliconsRepo } from "./silicons/SiliconsRepo.ts"
import { StkLogin } from "./silicons/StkLogin.ts"
import { accountsVersioning } from "./versions.ts"

/** The token endpoint's grants: oauth's own, with the ones device and silicons add. */
const TokenGrantsLive = JwtBearerGrantLive.pipe(Layer.provide(DeviceCodeGrantLive), Layer.provide(OAuthGrantsLive))

/** Every area's handlers. */
export const AccountsHandlers = Layer.mergeAll(
  ServiceLive,
  DiscoveryLive,
  ReportsLive,
  SessionsLive,
  AccountIdsLive,
  OAuthLive,
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
).pipe(
  Layer.provide(Layer.mergeAll(AccountAuthLive, AppOrAuthorLive, InternalAuthLive)),
  Layer.provide(Layer.mergeAll(AppCredentials.Default, SigninConfigUpdate.Default)),
  Layer.provide(Layer.mergeAll(FlowEngine.Default, FlowCodeMoves.Default, FlowProviderMoves.Default)),
  Layer.provide(Layer.mergeAll(ProviderRegistry.Default, RoundTrips.Default, FlowsRepo.Default)),
  Layer.provide(AppsRepo.Default),
  Layer.provide(TokenGrantsLive),
  Layer.provide(TokenIssuer.Default),
  Layer.provide(Layer.mergeAll(AppTokenIssuer.Default, AppSigninsRepo.Default, AppAccountsRepo.Default, AuthorizationCodes.Default)),
  Layer.provide(MeViewsLive),
  Layer.provide(Layer.mergeAll(AssertionVerifier.Default, SiliconKeys.Default, IdentityTokens.Default)),
  Layer.provide(Layer.mergeAll(Custody.Default, SiliconManagement.Default, StkLogin.Default, CustodianRequestsRepo.Default, SiliconsRepo.Default)),
  Layer.provide(DeviceCodesRepo.Default),
  Layer.provide(Layer.mergeAll(AccountsRepo.Default, IdsRepo.Default, ContactsRepo.Default)),
  Layer.provide(AccessTokens.Default),
  Layer.provide(SigninsRepo.Default)
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
