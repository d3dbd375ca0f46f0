import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** The hosted-flow errors of spec 1 (Errors: Hosted flow), with the statuses they take inside flows. */

// Shared with linking an identity from account management (identities/), so kept in providers/ and auth/.
export { IdentityInUse, MethodNotEnabledForMove, ProviderUnavailable } from "../providers/errors.ts"
export { SessionRequired } from "../auth/errors.ts"

export class FlowUnknownApp extends ApiError<FlowUnknownApp>()("FlowUnknownApp", { code: "unknown_app", status: 400 }) {}
export class FlowAppDisabled extends ApiError<FlowAppDisabled>()("FlowAppDisabled", { code: "app_disabled", status: 400 }) {}
export class RedirectUriNotRegistered extends ApiError<RedirectUriNotRegistered>()("RedirectUriNotRegistered", {
  code: "redirect_uri_not_registered",
  status: 400
}) {}
export class InvalidScope extends ApiError<InvalidScope>()("InvalidScope", { code: "invalid_scope", status: 400 }) {}
export class UnsupportedResponseType extends ApiError<UnsupportedResponseType>()("UnsupportedResponseType", {
  code: "unsupported_response_type",
  status: 400
}) {}
/** 400 when the authorize request names it; 403 when a flow move uses it. */
export class MethodNotEnabled extends ApiError<MethodNotEnabled>()("MethodNotEnabled", {
  code: "method_not_enabled",
  status: 400
}) {}
export class FlowInvalidRequest extends ApiError<FlowInvalidRequest>()("FlowInvalidRequest", {
  code: "invalid_request",
  status: 400
}) {}
export class FlowNotFound extends ApiError<FlowNotFound>()("FlowNotFound", { code: "flow_not_found", status: 404 }) {}
export class FlowNotBound extends ApiError<FlowNotBound>()("FlowNotBound", { code: "flow_not_bound", status: 403 }) {}
export class FlowExpired extends ApiError<FlowExpired>()("FlowExpired", { code: "flow_expired", status: 410 }) {}
export class InvalidStep extends ApiError<InvalidStep>()("InvalidStep", {
  code: "invalid_step",
  status: 409,
  details: Schema.Struct({ step: Schema.String })
}) {}
export class FlowCompleted extends ApiError<FlowCompleted>()("FlowCompleted", { code: "flow_completed", status: 409 }) {}
export class FlowFailed extends ApiError<FlowFailed>()("FlowFailed", { code: "flow_failed", status: 409 }) {}
export class AccountUnavailable extends ApiError<AccountUnavailable>()("AccountUnavailable", {
  code: "account_unavailable",
  status: 409
}) {}
export class ContinueNotAllowed extends ApiError<ContinueNotAllowed>()("ContinueNotAllowed", {
  code: "continue_not_allowed",
  status: 403
}) {}
export class ReauthenticationRequired extends ApiError<ReauthenticationRequired>()("ReauthenticationRequired", {
  code: "reauthentication_required",
  status: 403
}) {}
export class EmailDomainNotAllowed extends ApiError<EmailDomainNotAllowed>()("EmailDomainNotAllowed", {
  code: "email_domain_not_allowed",
  status: 403
}) {}
export class SignupNotAllowed extends ApiError<SignupNotAllowed>()("SignupNotAllowed", {
  code: "signup_not_allowed",
  status: 403
}) {}
export class SignupNotBound extends ApiError<SignupNotBound>()("SignupNotBound", { code: "signup_not_bound", status: 403 }) {}
export class SignupExpired extends ApiError<SignupExpired>()("SignupExpired", { code: "signup_expired", status: 410 }) {}
export class SignupAlreadyCompleted extends ApiError<SignupAlreadyCompleted>()("SignupAlreadyCompleted", {
  code: "signup_already_completed",
  status: 409
}) {}
export class DetailNotOnPage extends ApiError<DetailNotOnPage>()("DetailNotOnPage", {
  code: "detail_not_on_page",
  status: 409,
  details: Schema.Struct({ field: Schema.String })
}) {}
export class NoPreviousPage extends ApiError<NoPreviousPage>()("NoPreviousPage", { code: "no_previous_page", status: 409 }) {}
export class RequirementsMissing extends ApiError<RequirementsMissing>()("RequirementsMissing", {
  code: "requirements_missing",
  status: 409,
  details: Schema.Struct({ missing: Schema.Array(Schema.String) })
}) {}
export class InvalidState extends ApiError<InvalidState>()("InvalidState", { code: "invalid_state", status: 400 }) {}
export class FlowChanged extends ApiError<FlowChanged>()("FlowChanged", { code: "flow_changed", status: 409 }) {}
export class AccountChanged extends ApiError<AccountChanged>()("AccountChanged", { code: "account_changed", status: 409 }) {}
