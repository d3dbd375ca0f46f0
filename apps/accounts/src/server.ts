import { idempotentRequests, IdempotencyStore, sealedAnswers } from "@platform/idempotency"
import { serveHttpApi } from "@platform/service"
import { Effect, Layer } from "effect"
import { AccountIdsLive } from "./accounts/Http.ts"
import { AccountsApi } from "./api.ts"
import { AppManagementLive } from "./app-management/Http.ts"
import { CliLoginLive } from "./cli-login/Http.ts"
import { AccountsConfig } from "./config.ts"
import { ContactsLive } from "./contacts/Http.ts"
import { DeviceCodeGrantLive } from "./device/deviceCodeGrant.ts"
import { DeviceLive } from "./device/Http.ts"
import { discoveryFromMemory, DiscoveryLive } from "./discovery/Http.ts"
import { FlowsLive } from "./flows/Http.ts"
import { MeLive } from "./me/Http.ts"
import { OAuthLive } from "./oauth/Http.ts"
import { OAuthGrantsLive } from "./oauth/OAuthGrants.ts"
import { ReportsLive } from "./reports/Http.ts"
import { SecretsAtRest } from "./SecretsAtRest.ts"
import { ServiceLive } from "./service/Http.ts"
import { SessionsLive } from "./sessions/Http.ts"
import { JwtBearerGrantLive } from "./silicons/assertions/jwtBearerGrant.ts"
import { SiliconsLive } from "./silicons/Http.ts"
import { MeViewsLive } from "./silicons/MeViewsLive.ts"
import { UserinfoLive } from "./userinfo/Http.ts"
import { accountsVersioning } from "./versions.ts"

/** The token endpoint's grants: oauth's own, device's, silicons'. oauth's need silicons' account views (MeViews). */
const TokenGrantsLive = JwtBearerGrantLive.pipe(Layer.provide(DeviceCodeGrantLive), Layer.provide(OAuthGrantsLive))

/** Every area, each providing its own services: left are the settings, the database and the stores of layers.ts. */
export const AccountsHandlers = Layer.mergeAll(
  ServiceLive, DiscoveryLive, ReportsLive, SessionsLive, AccountIdsLive, UserinfoLive, CliLoginLive,
  MeLive, ContactsLive, FlowsLive, DeviceLive, SiliconsLive, AppManagementLive,
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
    ...(yield* discoveryFromMemory)
  })
})).pipe(Layer.provide(SecretsAtRest.Default))
