import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable, IdReserved, IdTaken, InvalidId } from "@platform/accounts-identity-api"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { MemberPath, OrganizationPath } from "./Api.ts"
import {
  AdminRequired,
  CarbonRequired,
  MemberNotFound,
  OrganizationNotFound,
  RotationRequestExists,
  SiliconCustodianRequired
} from "./errors.ts"
import { GrantedRole, Member } from "./Organization.ts"

const SiliconToken = Schema.String.annotations({ description: "The Silicon's IAM token, stk- and 32 lowercase hex: shown only here" })

const NewSilicon = Schema.Struct({
  id: Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "si:<handle> or a bare handle (accounts' id rules)" }),
  display_name: Schema.String.pipe(Schema.maxLength(1000)).annotations({ description: "1 to 100 characters" }),
  role: Schema.optional(GrantedRole.annotations({ description: "Default member" }))
}).annotations({ identifier: "NewOrganizationSilicon" })

const RotationRequest = Schema.Struct({
  id: Schema.String.annotations({ description: "rrq_ and 22 base64url characters" }),
  organization_id: Schema.String,
  silicon_uuid: Schema.String,
  requested_by_uuid: Schema.String,
  status: Schema.Literal("pending", "completed"),
  created_at: Schema.String,
  completed_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SiliconRotationRequest" })

export class OrganizationSiliconsApi extends HttpApiGroup.make("organizationSilicons")
  .add(
    HttpApiEndpoint.post("create", "/api/v1/organizations/:organization_id/silicons")
      .setPath(OrganizationPath)
      .setPayload(NewSilicon)
      .addSuccess(
        Schema.Struct({ member: Member, token: SiliconToken }).annotations({ identifier: "CreatedOrganizationSilicon" }),
        { status: 201 }
      )
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(CarbonRequired))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(AccountsUnavailable))
      .annotate(
        OpenApi.Description,
        "Creates a Silicon in the organization (owner or admin, a Carbon): an active accounts account whose custodian is the caller, a member with the role given (default member), and its IAM token for POST /api/v1/silicon-auth/token, shown only in this answer (an Idempotency-Key retry replays it for 10 minutes)."
      )
  )
  .add(
    HttpApiEndpoint.post("rotateToken", "/api/v1/organizations/:organization_id/silicons/:uuid/token-rotations")
      .setPath(MemberPath)
      .addSuccess(Schema.Struct({ token: SiliconToken, rotated_at: Schema.String }).annotations({ identifier: "RotatedSiliconToken" }))
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "A new IAM token for a Silicon of the organization (owner or admin), shown only here: the previous token stops at once and the Silicon's IAM sessions end. Needs `X-Step-Up-Token` beside the bearer, minted for silicon.rotate_token on the Silicon's uuid."
      )
  )
  .add(
    HttpApiEndpoint.post("requestRotation", "/api/v1/organizations/:organization_id/silicons/:uuid/rotation-requests")
      .setPath(MemberPath)
      .addSuccess(RotationRequest, { status: 201 })
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(SiliconCustodianRequired))
      .addError(errorResponse(RotationRequestExists))
      .annotate(
        OpenApi.Description,
        "The Silicon itself (with its IAM bearer) or its custodian, an active member, asks an admin to rotate the Silicon's token: organization.silicon.rotation_requested (no credential data). One pending request per Silicon (409 rotation_request_exists); the next token rotation completes it and its credential_rotated event names it."
      )
  )
  .add(
    HttpApiEndpoint.get("listRotationRequests", "/api/v1/organizations/:organization_id/rotation-requests")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({
        ...PageQueryFields,
        status: Schema.optional(Schema.Literal("pending", "completed").annotations({ description: "Only requests in this status" }))
      }))
      .addSuccess(Page(RotationRequest, "SiliconRotationRequestsPage"))
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(
        OpenApi.Description,
        "The organization's Silicon token rotation requests, oldest first (owner or admin): what is waiting for an admin's rotation (status=pending) and what it answered."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Silicons of an organization")
{}
