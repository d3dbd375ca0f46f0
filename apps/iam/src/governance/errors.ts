import { ApiError } from "@platform/http"
import { Schema } from "effect"

export class TagNotFound extends ApiError<TagNotFound>()("TagNotFound", {
  code: "tag_not_found",
  status: 404,
  details: Schema.Struct({ tag_ids: Schema.Array(Schema.String) })
}) {}

export class TagNameTaken extends ApiError<TagNameTaken>()("TagNameTaken", {
  code: "tag_name_taken",
  status: 409,
  details: Schema.Struct({ tag_id: Schema.String })
}) {}

export class TagLimitReached extends ApiError<TagLimitReached>()("TagLimitReached", {
  code: "tag_limit_reached",
  status: 409,
  details: Schema.Struct({ limit: Schema.Int })
}) {}

export class TrustRuleNotFound extends ApiError<TrustRuleNotFound>()("TrustRuleNotFound", {
  code: "trust_rule_not_found",
  status: 404
}) {}

/** Another active rule already names this subject: update it instead. */
export class TrustRuleExists extends ApiError<TrustRuleExists>()("TrustRuleExists", {
  code: "trust_rule_exists",
  status: 409,
  details: Schema.Struct({ rule_id: Schema.String })
}) {}

export class TrustRuleArchived extends ApiError<TrustRuleArchived>()("TrustRuleArchived", {
  code: "trust_rule_archived",
  status: 409
}) {}

export class TrustRuleLimitReached extends ApiError<TrustRuleLimitReached>()("TrustRuleLimitReached", {
  code: "trust_rule_limit_reached",
  status: 409,
  details: Schema.Struct({ limit: Schema.Int })
}) {}

export class ApprovalRequestNotFound extends ApiError<ApprovalRequestNotFound>()("ApprovalRequestNotFound", {
  code: "approval_request_not_found",
  status: 404
}) {}

/** A pending request of this kind for this member already exists: decide it first. */
export class ApprovalRequestExists extends ApiError<ApprovalRequestExists>()("ApprovalRequestExists", {
  code: "approval_request_exists",
  status: 409,
  details: Schema.Struct({ request_id: Schema.String })
}) {}

export class ApprovalRequestNotPending extends ApiError<ApprovalRequestNotPending>()("ApprovalRequestNotPending", {
  code: "approval_request_not_pending",
  status: 409,
  details: Schema.Struct({ status: Schema.String })
}) {}

export class ApprovalRequestExpired extends ApiError<ApprovalRequestExpired>()("ApprovalRequestExpired", {
  code: "approval_request_expired",
  status: 410
}) {}

/** The organization does not ask for approval of this kind of change: make it directly. */
export class ApprovalNotRequired extends ApiError<ApprovalNotRequired>()("ApprovalNotRequired", {
  code: "approval_not_required",
  status: 409
}) {}

/** The request would change nothing (the member already has that role or those tags). */
export class NothingToChange extends ApiError<NothingToChange>()("NothingToChange", {
  code: "nothing_to_change",
  status: 409
}) {}

/** Neither the requester nor the member the request is about may decide it. */
export class OwnDecisionRefused extends ApiError<OwnDecisionRefused>()("OwnDecisionRefused", {
  code: "approval_by_party_refused",
  status: 403
}) {}
