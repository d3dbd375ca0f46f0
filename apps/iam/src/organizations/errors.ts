import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** No such organization, or the caller is not an active member of it (the same answer: membership is not disclosed). */
export class OrganizationNotFound extends ApiError<OrganizationNotFound>()("OrganizationNotFound", {
  code: "organization_not_found",
  status: 404
}) {}

export class MemberNotFound extends ApiError<MemberNotFound>()("MemberNotFound", {
  code: "member_not_found",
  status: 404
}) {}

/** The action needs the organization's owner or an admin. */
export class AdminRequired extends ApiError<AdminRequired>()("AdminRequired", {
  code: "organization_admin_required",
  status: 403
}) {}

export class OwnerRequired extends ApiError<OwnerRequired>()("OwnerRequired", {
  code: "organization_owner_required",
  status: 403
}) {}

/** Only a Carbon may do this (create an organization, accept an invitation, own an organization). */
export class CarbonRequired extends ApiError<CarbonRequired>()("CarbonRequired", {
  code: "carbon_required",
  status: 403
}) {}

/** The owner cannot be removed, leave or take another role: ownership is passed on by a transfer first. */
export class OwnerProtected extends ApiError<OwnerProtected>()("OwnerProtected", {
  code: "owner_protected",
  status: 409
}) {}

export class AlreadyMember extends ApiError<AlreadyMember>()("AlreadyMember", {
  code: "already_member",
  status: 409
}) {}

export class InvitationExists extends ApiError<InvitationExists>()("InvitationExists", {
  code: "invitation_exists",
  status: 409,
  details: Schema.Struct({ invitation_id: Schema.String })
}) {}

/** No such invitation, or not one addressed to the caller. */
export class InvitationNotFound extends ApiError<InvitationNotFound>()("InvitationNotFound", {
  code: "invitation_not_found",
  status: 404
}) {}

export class InvitationNotPending extends ApiError<InvitationNotPending>()("InvitationNotPending", {
  code: "invitation_not_pending",
  status: 409,
  details: Schema.Struct({ status: Schema.String })
}) {}

export class InvitationExpired extends ApiError<InvitationExpired>()("InvitationExpired", {
  code: "invitation_expired",
  status: 410
}) {}

/** The organization's governance makes this change a request another admin or the owner decides. */
export class ApprovalRequired extends ApiError<ApprovalRequired>()("ApprovalRequired", {
  code: "approval_required",
  status: 409,
  details: Schema.Struct({ kind: Schema.Literal("role_change", "tag_change") })
}) {}

/** Only the Silicon itself or its custodian (the Carbon who created it in this organization) may ask this. */
export class SiliconCustodianRequired extends ApiError<SiliconCustodianRequired>()("SiliconCustodianRequired", {
  code: "silicon_custodian_required",
  status: 403
}) {}

export class RotationRequestExists extends ApiError<RotationRequestExists>()("RotationRequestExists", {
  code: "rotation_request_exists",
  status: 409,
  details: Schema.Struct({ request_id: Schema.String })
}) {}
