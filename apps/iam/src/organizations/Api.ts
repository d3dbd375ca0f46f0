import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { AdminRequired, ApprovalRequired, CarbonRequired, MemberNotFound, OrganizationNotFound, OwnerProtected, OwnerRequired } from "./errors.ts"
import {
  GovernanceSettings,
  GrantedRole,
  Member,
  MyOrganization,
  OrganizationDescription,
  OrganizationName
} from "./Organization.ts"

export const OrganizationPath = Schema.Struct({
  organization_id: Schema.String.pipe(Schema.maxLength(100))
})
export const MemberPath = Schema.Struct({
  organization_id: Schema.String.pipe(Schema.maxLength(100)),
  uuid: Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "The member's identity uuid" })
})

const NewOrganization = Schema.Struct({
  name: OrganizationName,
  description: Schema.optional(OrganizationDescription)
}).annotations({ identifier: "NewOrganization" })

const OrganizationChanges = Schema.Struct({
  name: Schema.optional(OrganizationName),
  description: Schema.optional(Schema.NullOr(OrganizationDescription))
}).annotations({ identifier: "OrganizationChanges" })

const notFound = errorResponse(OrganizationNotFound)
const STEP_UP = "Needs `X-Step-Up-Token` beside the bearer, minted for"

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.post("create", "/api/v1/organizations")
      .setPayload(NewOrganization)
      .addSuccess(MyOrganization, { status: 201 })
      .addError(errorResponse(CarbonRequired))
      .annotate(OpenApi.Description, "Creates an organization owned by the caller, a Carbon (a Silicon: 403 carbon_required).")
  )
  .add(
    HttpApiEndpoint.get("list", "/api/v1/organizations")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(MyOrganization, "MyOrganizationsPage"))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The organizations the caller is an active member of, with its role, by name.")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/v1/organizations/:organization_id")
      .setPath(OrganizationPath)
      .addSuccess(MyOrganization)
      .addError(notFound)
      .annotate(OpenApi.Description, "An organization the caller is an active member of; any other id is 404 organization_not_found.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/v1/organizations/:organization_id")
      .setPath(OrganizationPath)
      .setPayload(OrganizationChanges)
      .addSuccess(MyOrganization)
      .addError(notFound)
      .addError(errorResponse(AdminRequired))
      .annotate(
        OpenApi.Description,
        "Changes the name or description (owner or admin; null or empty clears the description). A patch that changes nothing makes no new version and no event."
      )
  )
  .add(
    HttpApiEndpoint.post("transferOwnership", "/api/v1/organizations/:organization_id/owner")
      .setPath(OrganizationPath)
      .setPayload(Schema.Struct({ uuid: Schema.String.annotations({ description: "The new owner: an active Carbon member" }) }))
      .addSuccess(MyOrganization)
      .addError(notFound)
      .addError(errorResponse(OwnerRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(CarbonRequired))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        `The owner passes ownership to another active member, a Carbon; the previous owner stays as an admin. ${STEP_UP} organization.transfer_ownership on the organization's id.`
      )
  )
  .add(
    HttpApiEndpoint.patch("setGovernance", "/api/v1/organizations/:organization_id/governance")
      .setPath(OrganizationPath)
      .setPayload(Schema.partial(GovernanceSettings).annotations({ identifier: "GovernanceSettingsChanges" }))
      .addSuccess(MyOrganization)
      .addError(notFound)
      .addError(errorResponse(OwnerRequired))
      .annotate(
        OpenApi.Description,
        "Whether role changes and tag changes need approval (the owner). While one does, the direct route answers 409 approval_required and admins use POST /api/v1/organizations/{organization_id}/approval-requests. A change writes organization.updated with changed [\"governance\"]."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organizations")
{}

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/api/v1/organizations/:organization_id/members")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(Member, "MembersPage"))
      .addError(notFound)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The organization's active members, Carbons and Silicons, oldest first (any member).")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/v1/organizations/:organization_id/members/:uuid")
      .setPath(MemberPath)
      .addSuccess(Member)
      .addError(notFound)
      .addError(errorResponse(MemberNotFound))
  )
  .add(
    HttpApiEndpoint.patch("changeRole", "/api/v1/organizations/:organization_id/members/:uuid")
      .setPath(MemberPath)
      .setPayload(Schema.Struct({ role: GrantedRole }))
      .addSuccess(Member)
      .addError(notFound)
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(OwnerProtected))
      .addError(errorResponse(ApprovalRequired))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        `Makes a member an admin or a member (owner or admin). The owner's role changes only by a transfer (409 owner_protected); the same role again changes nothing. While the organization's role changes need approval: 409 approval_required (request it instead). ${STEP_UP} organization.authorization_change on the organization's id.`
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/v1/organizations/:organization_id/members/:uuid")
      .setPath(MemberPath)
      .addSuccess(Member)
      .addError(notFound)
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(OwnerProtected))
      .annotate(
        OpenApi.Description,
        "Removes a member (owner or admin), or the caller itself (leaving); never the owner (409 owner_protected). A removed Silicon's IAM token stops and its sessions end. Answers the member as removed."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organization members")
{}
