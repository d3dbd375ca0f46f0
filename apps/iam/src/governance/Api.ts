import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { MemberPath, OrganizationPath } from "../organizations/Api.ts"
import { AdminRequired, ApprovalRequired, MemberNotFound, OrganizationNotFound, OwnerProtected } from "../organizations/errors.ts"
import { Member } from "../organizations/Organization.ts"
import {
  ApprovalNotRequired,
  ApprovalRequestExists,
  ApprovalRequestExpired,
  ApprovalRequestNotFound,
  ApprovalRequestNotPending,
  NothingToChange,
  OwnDecisionRefused,
  TagLimitReached,
  TagNameTaken,
  TagNotFound,
  TrustRuleArchived,
  TrustRuleExists,
  TrustRuleLimitReached,
  TrustRuleNotFound
} from "./errors.ts"
import {
  ApprovalRequest,
  MAX_TAGS,
  MAX_TRUST_RULES,
  NewApprovalRequest,
  Note,
  Tag,
  TagIds,
  TagName,
  TrustLevel,
  TrustPolicy,
  TrustRule,
  TrustSubject
} from "./Governance.ts"

const Id = Schema.String.pipe(Schema.maxLength(100))
const TagPath = Schema.extend(OrganizationPath, Schema.Struct({ tag_id: Id }))
const RulePath = Schema.extend(OrganizationPath, Schema.Struct({ rule_id: Id }))
const RequestPath = Schema.extend(OrganizationPath, Schema.Struct({ request_id: Id }))

const notFound = errorResponse(OrganizationNotFound)
const adminRequired = errorResponse(AdminRequired)

export class TagsApi extends HttpApiGroup.make("tags")
  .add(
    HttpApiEndpoint.get("list", "/api/v1/organizations/:organization_id/tags")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Struct({ items: Schema.Array(Tag) }).annotations({ identifier: "OrganizationTags" }))
      .addError(notFound)
      .annotate(OpenApi.Description, `The organization's tags by name (any member; at most ${MAX_TAGS}).`)
  )
  .add(
    HttpApiEndpoint.post("create", "/api/v1/organizations/:organization_id/tags")
      .setPath(OrganizationPath)
      .setPayload(Schema.Struct({ name: TagName, description: Schema.optional(Schema.NullOr(Note)) }).annotations({ identifier: "NewOrganizationTag" }))
      .addSuccess(Tag, { status: 201 })
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(TagNameTaken))
      .addError(errorResponse(TagLimitReached))
      .annotate(
        OpenApi.Description,
        `Creates a tag (owner or admin): organization.tag_created. Names are unique regardless of case (409 tag_name_taken); at most ${MAX_TAGS} tags (409 tag_limit_reached). Tags are not deleted.`
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/v1/organizations/:organization_id/tags/:tag_id")
      .setPath(TagPath)
      .setPayload(Schema.Struct({ name: Schema.optional(TagName), description: Schema.optional(Schema.NullOr(Note)) }).annotations({ identifier: "OrganizationTagChanges" }))
      .addSuccess(Tag)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(TagNotFound))
      .addError(errorResponse(TagNameTaken))
      .annotate(OpenApi.Description, "Renames a tag or changes its description (owner or admin): organization.tag_updated; a patch that changes nothing writes nothing.")
  )
  .add(
    HttpApiEndpoint.put("setMemberTags", "/api/v1/organizations/:organization_id/members/:uuid/tags")
      .setPath(MemberPath)
      .setPayload(Schema.Struct({ tag_ids: TagIds }).annotations({ identifier: "MemberTags" }))
      .addSuccess(Member)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(TagNotFound))
      .addError(errorResponse(ApprovalRequired))
      .annotate(
        OpenApi.Description,
        "Replaces the tags a member carries (owner or admin): organization.membership.updated with changed [\"tags\"] (organization.silicon.updated for a Silicon); the same set writes nothing. While the organization's tag changes need approval: 409 approval_required (request it instead)."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organization tags")
{}

export class TrustApi extends HttpApiGroup.make("trust")
  .add(
    HttpApiEndpoint.get("read", "/api/v1/organizations/:organization_id/trust")
      .setPath(OrganizationPath)
      .addSuccess(TrustPolicy)
      .addError(notFound)
      .annotate(OpenApi.Description, "The organization's trust: its default level and active rules (any member).")
  )
  .add(
    HttpApiEndpoint.put("setDefault", "/api/v1/organizations/:organization_id/trust/default")
      .setPath(OrganizationPath)
      .setPayload(Schema.Struct({ level: TrustLevel }).annotations({ identifier: "TrustDefault" }))
      .addSuccess(TrustPolicy)
      .addError(notFound)
      .addError(adminRequired)
      .annotate(OpenApi.Description, "The level of every party no active rule names (owner or admin): organization.trust.default_updated; the same level writes nothing.")
  )
  .add(
    HttpApiEndpoint.post("createRule", "/api/v1/organizations/:organization_id/trust/rules")
      .setPath(OrganizationPath)
      .setPayload(Schema.Struct({ subject: TrustSubject, level: TrustLevel, note: Schema.optional(Schema.NullOr(Note)) }).annotations({ identifier: "NewTrustRule" }))
      .addSuccess(TrustRule, { status: 201 })
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(TrustRuleExists))
      .addError(errorResponse(TrustRuleLimitReached))
      .annotate(
        OpenApi.Description,
        `A rule (owner or admin): another organization, an identity or an email domain at a level: organization.trust.rule_created. One active rule per subject (409 trust_rule_exists); at most ${MAX_TRUST_RULES} active rules.`
      )
  )
  .add(
    HttpApiEndpoint.get("readRule", "/api/v1/organizations/:organization_id/trust/rules/:rule_id")
      .setPath(RulePath)
      .addSuccess(TrustRule)
      .addError(notFound)
      .addError(errorResponse(TrustRuleNotFound))
      .annotate(OpenApi.Description, "A rule, active or archived (any member).")
  )
  .add(
    HttpApiEndpoint.patch("updateRule", "/api/v1/organizations/:organization_id/trust/rules/:rule_id")
      .setPath(RulePath)
      .setPayload(Schema.Struct({ level: Schema.optional(TrustLevel), note: Schema.optional(Schema.NullOr(Note)) }).annotations({ identifier: "TrustRuleChanges" }))
      .addSuccess(TrustRule)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(TrustRuleNotFound))
      .addError(errorResponse(TrustRuleArchived))
      .annotate(OpenApi.Description, "A new level or note for an active rule (owner or admin; the subject is fixed): organization.trust.rule_updated; a patch that changes nothing writes nothing.")
  )
  .add(
    HttpApiEndpoint.post("archiveRule", "/api/v1/organizations/:organization_id/trust/rules/:rule_id/archive")
      .setPath(RulePath)
      .addSuccess(TrustRule)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(TrustRuleNotFound))
      .addError(errorResponse(TrustRuleArchived))
      .annotate(OpenApi.Description, "Archives an active rule (owner or admin): it stops applying and stays readable; organization.trust.rule_archived.")
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organization trust")
{}

export class ApprovalsApi extends HttpApiGroup.make("approvals")
  .add(
    HttpApiEndpoint.post("request", "/api/v1/organizations/:organization_id/approval-requests")
      .setPath(OrganizationPath)
      .setPayload(NewApprovalRequest)
      .addSuccess(ApprovalRequest, { status: 201 })
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(TagNotFound))
      .addError(errorResponse(OwnerProtected))
      .addError(errorResponse(ApprovalNotRequired))
      .addError(errorResponse(NothingToChange))
      .addError(errorResponse(ApprovalRequestExists))
      .annotate(
        OpenApi.Description,
        "Asks for a member's role change or tag change (owner or admin) while the organization's governance needs approval of it (else 409 approval_not_required): organization.role_change.requested or organization.tag_change.requested. One pending request per member and kind (409 approval_request_exists); a request expires after 7 days."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/api/v1/organizations/:organization_id/approval-requests")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(ApprovalRequest, "ApprovalRequestsPage"))
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The organization's approval requests, oldest first (owner or admin).")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/v1/organizations/:organization_id/approval-requests/:request_id")
      .setPath(RequestPath)
      .addSuccess(ApprovalRequest)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(ApprovalRequestNotFound))
  )
  .add(
    HttpApiEndpoint.post("decide", "/api/v1/organizations/:organization_id/approval-requests/:request_id/decision")
      .setPath(RequestPath)
      .setPayload(Schema.Struct({ decision: Schema.Literal("approve", "reject") }).annotations({ identifier: "ApprovalDecision" }))
      .addSuccess(ApprovalRequest)
      .addError(notFound)
      .addError(adminRequired)
      .addError(errorResponse(ApprovalRequestNotFound))
      .addError(errorResponse(ApprovalRequestNotPending))
      .addError(errorResponse(ApprovalRequestExpired))
      .addError(errorResponse(OwnDecisionRefused))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(TagNotFound))
      .addError(errorResponse(OwnerProtected))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Approves or rejects a pending request (owner or admin; never its requester nor its member: 403 approval_by_party_refused): organization.approval.decided, then, for an approval, the change and its usual events in the same transaction. Approving a role change needs `X-Step-Up-Token` minted for organization.authorization_change on the organization's id."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organization approvals")
{}
