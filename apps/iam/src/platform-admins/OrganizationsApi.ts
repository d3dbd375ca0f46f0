import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields, strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { OrganizationNotFound } from "../organizations/errors.ts"
import { Organization } from "../organizations/Organization.ts"
import { SsoEntitlementNotFound } from "../sso/errors.ts"
import { MAX_CONNECTIONS } from "../sso/policy.ts"
import { SsoEntitlement, SsoState } from "../sso/Sso.ts"
import { PlatformAdminRequired } from "./errors.ts"

const OrganizationPath = Schema.Struct({ organization_id: Schema.String.pipe(Schema.maxLength(100)) })

export const AdminOrganizationSummary = Schema.Struct({
  organization: Organization,
  members_count: Schema.Number.annotations({ description: "Active members, Silicons included" })
}).annotations({ identifier: "AdminOrganizationSummary" })

export const AdminOrganization = Schema.Struct({
  organization: Organization,
  members_count: Schema.Number,
  sso: SsoState
}).annotations({ identifier: "AdminOrganization" })

export const EntitlementRequest = strict(Schema.Struct({
  max_connections: Schema.Int.pipe(Schema.between(1, MAX_CONNECTIONS)).annotations({
    description: `How many SSO connections (pending and active) the organization may hold, 1 to ${MAX_CONNECTIONS}`
  })
})).annotations({ identifier: "SsoEntitlementRequest" })

const STEP_UP = "Needs X-Step-Up-Token for platform_admin.sso_entitlement on the organization id."

/** Platform admins read every organization and grant organizations SSO (bearer of a Carbon with a current grant). */
export class AdminOrganizationsApi extends HttpApiGroup.make("adminOrganizations")
  .add(
    HttpApiEndpoint.get("list", "/api/v1/admin/organizations")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(AdminOrganizationSummary, "AdminOrganizationsPage"))
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "Every organization, by id, with its active members counted.")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/v1/admin/organizations/:organization_id")
      .setPath(OrganizationPath)
      .addSuccess(AdminOrganization)
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(OrganizationNotFound))
      .annotate(OpenApi.Description, "One organization with its members count and its SSO: entitlement, connections and state.")
  )
  .add(
    HttpApiEndpoint.put("replaceEntitlement", "/api/v1/admin/organizations/:organization_id/sso-entitlement")
      .setPath(OrganizationPath)
      .setPayload(EntitlementRequest)
      .addSuccess(SsoEntitlement)
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(ValidationFailed))
      .addError(StepUpRefusals)
      .annotate(OpenApi.Description, `Grants or replaces the organization's SSO entitlement (sso.entitlement.replaced.v1). ${STEP_UP}`)
  )
  .add(
    HttpApiEndpoint.del("removeEntitlement", "/api/v1/admin/organizations/:organization_id/sso-entitlement")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(SsoEntitlementNotFound))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        `Removes the entitlement: every connection is deactivated and open setup links end (sso.entitlement.replaced.v1 with a null resource). ${STEP_UP}`
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Platform admin: organizations and SSO entitlements")
{}
