import { HttpApi, OpenApi } from "@effect/platform"
import { InternalIdentitiesApi } from "@platform/accounts-identity-api"
import { withConventionErrors } from "@platform/http"
import { AccountIdsApi } from "./accounts/Api.ts"
import { AccountSiteApi } from "./account-site/Api.ts"
import { AppAccessApi } from "./app-access/Api.ts"
import { AppsApi, AppsPublicApi, InternalAppsApi, OwnedAppsApi } from "./app-management/Api.ts"
import { CliLoginApi } from "./cli-login/Api.ts"
import { SigninConfigPreviewApi } from "./signin-preview/Api.ts"
import { EmailsApi, PhonesApi } from "./contacts/Api.ts"
import { DeviceApprovalApi, DeviceAuthorizationApi } from "./device/Api.ts"
import { DiscoveryApi } from "./discovery/Api.ts"
import { EventStreamApi } from "./stream/Api.ts"
import { FlowsApi } from "./flows/Api.ts"
import { HistoryApi } from "./history/Api.ts"
import { ImportsApi } from "./imports/Api.ts"
import { LookupsApi } from "./lookups/Api.ts"
import { AuthorizeApi } from "./flows/AuthorizeApi.ts"
import { SigninPagesApi } from "./flows/PagesApi.ts"
import { SiteApi } from "./site/Api.ts"
import { MeApi } from "./me/Api.ts"
import { PhotosApi } from "./profile/Api.ts"
import { OAuthApi } from "./oauth/Api.ts"
import { ProvidersApi } from "./flows/ProviderCallbackApi.ts"
import { ReportsApi } from "./reports/Api.ts"
import { TelemetryApi } from "./telemetry/Api.ts"
import { IdentitiesApi } from "./identities/Api.ts"
import { ServiceApi } from "./service/Api.ts"
import { ShortLivedTokensApi } from "./short-lived-tokens/Api.ts"
import { FederationsApi } from "./federations/Api.ts"
import { AccountVerificationApi, AppProofsApi, MyProofsApi, ProofsApi } from "./proofs/Api.ts"
import { SessionsApi } from "./sessions/Api.ts"
import { SubscriptionsApi } from "./subscriptions/Api.ts"
import { SiliconsApi } from "./silicons/Api.ts"
import { SiliconIdentityApi } from "./silicons/identity/Api.ts"
import { SiliconKeysApi } from "./silicons/keys/Api.ts"
import { CustodianRequestsApi, MySiliconsApi } from "./silicons/CustodyApi.ts"
import { UserinfoApi } from "./userinfo/Api.ts"
import { AppWebhookApi, SiliconWebhookApi } from "./webhooks/Api.ts"
import { accountsVersioning, SERVICE_VERSION } from "./versions.ts"

/** The accounts service's whole HTTP contract; `/openapi.json` is generated from it. */
export class AccountsApi extends withConventionErrors(
  HttpApi.make("accounts")
    .add(ServiceApi)
    .add(DiscoveryApi)
    .add(ReportsApi)
    .add(TelemetryApi)
    .add(AccountIdsApi)
    .add(SessionsApi)
    .add(OAuthApi)
    .add(AuthorizeApi)
    .add(FlowsApi)
    .add(SigninPagesApi)
    .add(SiteApi)
    .add(AccountSiteApi)
    .add(ProvidersApi)
    .add(UserinfoApi)
    .add(CliLoginApi)
    .add(DeviceAuthorizationApi)
    .add(DeviceApprovalApi)
    .add(MeApi)
    .add(PhotosApi)
    .add(EmailsApi)
    .add(PhonesApi)
    .add(IdentitiesApi)
    .add(SiliconsApi)
    .add(CustodianRequestsApi)
    .add(MySiliconsApi)
    .add(AppsApi)
    .add(SigninConfigPreviewApi)
    .add(AppsPublicApi)
    .add(OwnedAppsApi)
    .add(InternalAppsApi)
    .add(InternalIdentitiesApi)
    .add(SubscriptionsApi)
    .add(SiliconKeysApi)
    .add(SiliconIdentityApi)
    .add(AppWebhookApi)
    .add(SiliconWebhookApi)
    .add(EventStreamApi)
    .add(AppAccessApi)
    .add(HistoryApi)
    .add(LookupsApi)
    .add(ShortLivedTokensApi)
    .add(ProofsApi)
    .add(AppProofsApi)
    .add(MyProofsApi)
    .add(AccountVerificationApi)
    .add(FederationsApi)
    .add(ImportsApi),
  accountsVersioning
)
  .annotate(OpenApi.Title, "Accounts")
  .annotate(OpenApi.Version, SERVICE_VERSION)
  .annotate(
    OpenApi.Description,
    "Carbon and Silicon accounts and the OAuth 2.0 / OpenID Connect provider. Every error body is {\"error\":{\"code\",\"message\",\"hint\"?,\"details\"?}}. Requests to unknown paths answer 404 route_not_found; a known path with another method answers 405 method_not_allowed with an Allow header. Send Accounts-Version to pin a dated API version (current 2026-10-01)."
  )
{}
