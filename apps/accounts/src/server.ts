import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { conventions, servePublicDocuments } from "@platform/http"
import { idempotentRequests, IdempotencyStore } from "@platform/idempotency"
import { SigningKeys } from "@platform/signing-keys"
import { Effect, FiberRef, Layer, LogLevel } from "effect"
import { createServer } from "node:http"
import { AccountIdsLive } from "./accounts/Http.ts"
import { AppCredentials } from "./apps/AppCredentials.ts"
import { AppOrAuthorLive } from "./apps/AppOrAuthor.ts"
import { AppsRepo } from "./apps/AppsRepo.ts"
import { AppsLive, AppsPublicLive, InternalAppsLive, OwnedAppsLive } from "./apps/Http.ts"
import { InternalAuthLive } from "./apps/InternalAuth.ts"
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
import { MeViews } from "./me/AccountMe.ts"
import { MeLive } from "./me/Http.ts"
import { OAuthLive } from "./oauth/Http.ts"
import { AuthorizeLive } from "./authorize/AuthorizeHttp.ts"
import { FlowsLive } from "./flows/Http.ts"
import { FlowCodeMoves } from "./flows/FlowCodeMoves.ts"
import { FlowEngine } from "./flows/FlowEngine.ts"
import { FlowProviderMoves } from "./flows/FlowProviderMoves.ts"
import { ProvidersLive } from "./providers/Http.ts"
import { ProviderRegistry } from "./providers/ProviderRegistry.ts"
import { RoundTrips } from "./providers/RoundTrips.ts"
import { FlowsRepo } from "./flows/FlowsRepo.ts"
import { UserinfoLive } from "./userinfo/Http.ts"
import { TokenIssuer } from "./oauth/TokenIssuer.ts"
import { AppAccountsRepo } from "./oauth/AppAccountsRepo.ts"
import { AppSigninsRepo } from "./oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "./oauth/AppTokenIssuer.ts"
import { AuthorizationCodes } from "./authorize/AuthorizationCodes.ts"
import { AccessTokens } from "./auth/AccessTokens.ts"
import { AccountAuthLive } from "./auth/AccountAuth.ts"
import { SigninsRepo } from "./auth/SigninsRepo.ts"
import { AccountsConfig } from "./config.ts"
import { discoveryDocuments } from "./discovery/DiscoveryDocuments.ts"
import { DiscoveryLive } from "./discovery/Http.ts"
import { ReportsLive } from "./reports/Http.ts"
import { ReportsRepo } from "./reports/ReportsRepo.ts"
import { ServiceLive } from "./service/Http.ts"
import { SessionsLive } from "./sessions/Http.ts"
import { Custody } from "./silicons/Custody.ts"
import { CustodianRequestsRepo } from "./silicons/CustodianRequestsRepo.ts"
import { SiliconsLive } from "./silicons/Http.ts"
import { AssertionVerifier } from "./silicons/assertions/AssertionVerifier.ts"
import { SiliconIdentityLive } from "./silicons/identity/Http.ts"
import { IdentityTokens } from "./silicons/identity/IdentityTokens.ts"
import { SiliconKeysLive } from "./silicons/keys/Http.ts"
import { SiliconKeys } from "./silicons/keys/SiliconKeys.ts"
import { CustodianRequestsLive, MySiliconsLive } from "./silicons/CustodyHttp.ts"
import { SiliconManagement } from "./silicons/SiliconManagement.ts"
import { SiliconsRepo } from "./silicons/SiliconsRepo.ts"
import { StkLogin } from "./silicons/StkLogin.ts"
import { accountsVersioning } from "./versions.ts"

const OPENAPI_PATH = "/openapi.json"
const DOCS_PATH = "/docs"

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
  Layer.provide(TokenIssuer.Default),
  Layer.provide(Layer.mergeAll(AppTokenIssuer.Default, AppSigninsRepo.Default, AppAccountsRepo.Default, AuthorizationCodes.Default)),
  Layer.provide(MeViews.Default),
  Layer.provide(Layer.mergeAll(AssertionVerifier.Default, SiliconKeys.Default, IdentityTokens.Default)),
  Layer.provide(Layer.mergeAll(Custody.Default, SiliconManagement.Default, StkLogin.Default, CustodianRequestsRepo.Default, SiliconsRepo.Default)),
  Layer.provide(DeviceCodesRepo.Default),
  Layer.provide(ReportsRepo.Default),
  Layer.provide(Layer.mergeAll(AccountsRepo.Default, IdsRepo.Default, ContactsRepo.Default)),
  Layer.provide(AccessTokens.Default),
  Layer.provide(SigninsRepo.Default)
)

const ApiLive = HttpApiBuilder.api(AccountsApi).pipe(Layer.provide(AccountsHandlers))

const ConventionsLive = HttpApiBuilder.middleware(
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const idempotency = yield* IdempotencyStore
    return conventions({
      api: AccountsApi,
      versioning: accountsVersioning,
      extraRoutes: [{ method: "GET", path: OPENAPI_PATH }, { method: "GET", path: DOCS_PATH }],
      around: idempotentRequests(idempotency, { trustProxy: config.trustProxy })
    })
  })
)

/** The HTTP app with its conventions, the OpenAPI document and the docs page, ready to serve. */
export const AccountsHttp = HttpApiBuilder.serve().pipe(
  // Spans per request cost more than the routes themselves; logs carry the request id instead.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(HttpApiScalar.layer({ path: DOCS_PATH })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: OPENAPI_PATH })),
  Layer.provide(ConventionsLive),
  Layer.provide(ApiLive)
)

/**
 * Listens on the configured host and port, answering the discovery
 * documents from memory before the Effect runtime (they are every client's
 * first and most frequent request). On shutdown the server stops
 * accepting and waits for requests in flight; connections still busy after
 * ACCOUNTS_DRAIN_SECONDS are closed.
 */
export const NodeServerLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const documents = discoveryDocuments(config.publicUrl, yield* SigningKeys)
    const server = createServer()
    // The request log line is an INFO line: written unless the runtime's minimum log level is above it.
    const minimumLevel = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
    servePublicDocuments(server, [documents.openIdConfiguration, documents.jwks], accountsVersioning, {
      logRequests: LogLevel.lessThanEqual(minimumLevel, LogLevel.Info)
    })
    const drainDeadline = Layer.scopedDiscard(
      Effect.addFinalizer(() =>
        Effect.sync(() => {
          // Keep-alive connections become idle as their last request ends: close them as they do.
          const idle = setInterval(() => server.closeIdleConnections(), 100).unref()
          setTimeout(() => {
            clearInterval(idle)
            server.closeAllConnections()
          }, config.drainSeconds * 1000).unref()
        })
      )
    )
    return Layer.provideMerge(drainDeadline, NodeHttpServer.layer(() => server, { port: config.port, host: config.host }))
  })
)

export const AccountsServer = AccountsHttp.pipe(HttpServer.withLogAddress, Layer.provide(NodeServerLive))
