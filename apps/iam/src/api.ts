import { HttpApi, OpenApi } from "@effect/platform"
import { withConventionErrors } from "@platform/http"
import { AppLoginApi, AppLoginPagesApi } from "./app-login/Api.ts"
import { ApplicationSessionsApi, OnBehalfOfApi } from "@platform/iam-app-api"
import { ApplicationReviewsApi } from "./applications/AdminApi.ts"
import { ApplicationCredentialsApi, ApplicationsApi } from "./applications/Api.ts"
import { ApprovalsApi, TagsApi, TrustApi } from "./governance/Api.ts"
import { LoginApi, SignupApi } from "./login/Api.ts"
import { MembersApi, OrganizationsApi } from "./organizations/Api.ts"
import { InvitationsApi } from "./organizations/InvitationsApi.ts"
import { OrganizationSiliconsApi } from "./organizations/SiliconsApi.ts"
import { AdminOrganizationsApi } from "./platform-admins/OrganizationsApi.ts"
import { ServiceApi } from "./service/Api.ts"
import { SessionRefreshApi, SessionsApi } from "./session-management/Api.ts"
import { SiliconAuthApi } from "./silicon-auth/Api.ts"
import { SiteApi } from "./site/Api.ts"
import { OrganizationSsoApi, SsoApi } from "./sso/Api.ts"
import { StepUpApi } from "./step-up/Api.ts"
import { iamVersioning, SERVICE_VERSION } from "./versions.ts"
import { ApplicationWebhooksApi, SiliconWebhooksApi } from "./webhooks/Api.ts"

/** IAM's whole HTTP contract (spec 2); `/openapi.json` is generated from it. Other services and tests call it through HttpApiClient. */
export class IamApi extends withConventionErrors(
  HttpApi.make("iam")
    .add(ServiceApi)
    .add(SessionsApi)
    .add(SessionRefreshApi)
    .add(LoginApi)
    .add(SignupApi)
    .add(StepUpApi)
    .add(OrganizationsApi)
    .add(MembersApi)
    .add(InvitationsApi)
    .add(OrganizationSiliconsApi)
    .add(TagsApi)
    .add(TrustApi)
    .add(ApprovalsApi)
    .add(SiliconAuthApi)
    .add(ApplicationsApi)
    .add(ApplicationCredentialsApi)
    .add(ApplicationReviewsApi)
    .add(AdminOrganizationsApi)
    .add(OrganizationSsoApi)
    .add(SsoApi)
    .add(ApplicationSessionsApi)
    .add(OnBehalfOfApi)
    .add(AppLoginApi)
    .add(AppLoginPagesApi)
    .add(SiteApi)
    .add(ApplicationWebhooksApi)
    .add(SiliconWebhooksApi),
  iamVersioning
)
  .annotate(OpenApi.Title, "Organization IAM")
  .annotate(OpenApi.Version, SERVICE_VERSION)
  .annotate(
    OpenApi.Description,
    "Carbon and Silicon login with opaque tokens, organizations, step-up and the application login handoff (spec 2). Every error body is {\"error\":{\"code\",\"message\",\"hint\"?,\"details\"?}}, except the application OAuth endpoints, which answer RFC 6749 bodies. Send Iam-Version to pin a dated API version (current 2026-11-01)."
  )
{}
