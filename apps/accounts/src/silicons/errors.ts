import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Silicon and custody errors of spec 1 (Errors: "Silicon and custody"). */

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

export class InvalidStk extends ApiError<InvalidStk>()("InvalidStk", {
  code: "invalid_stk",
  status: 422
}) {}

/** Shared with IAM's Silicon login, beside the failure streaks that lock it. */
export { InvalidCredentials, LoginLocked } from "@platform/rate-limit"

export class CustodianPending extends ApiError<CustodianPending>()("CustodianPending", {
  code: "custodian_pending",
  status: 403,
  details: Schema.Struct({
    custodian: Schema.String.annotations({ description: "The c: id named, or the email masked" }),
    request_id: Schema.String,
    expires_at: Timestamp
  })
}) {}

export class CustodianDeclined extends ApiError<CustodianDeclined>()("CustodianDeclined", {
  code: "custodian_declined",
  status: 403
}) {}

export class CustodianExpired extends ApiError<CustodianExpired>()("CustodianExpired", {
  code: "custodian_expired",
  status: 403
}) {}

/** 403 at Silicon sign-in: the Silicon was deleted by its custodian. */
export class AccountDeleted extends ApiError<AccountDeleted>()("AccountDeleted", {
  code: "account_deleted",
  status: 403
}) {}

export class CustodianNotFound extends ApiError<CustodianNotFound>()("CustodianNotFound", {
  code: "custodian_not_found",
  status: 404
}) {}

export class SiliconNotFound extends ApiError<SiliconNotFound>()("SiliconNotFound", {
  code: "silicon_not_found",
  status: 404
}) {}

export class CustodianRequestNotFound extends ApiError<CustodianRequestNotFound>()("CustodianRequestNotFound", {
  code: "custodian_request_not_found",
  status: 404
}) {}

export class CustodianRequestNotPending extends ApiError<CustodianRequestNotPending>()("CustodianRequestNotPending", {
  code: "custodian_request_not_pending",
  status: 409,
  details: Schema.Struct({ status: Schema.String })
}) {}

export class CustodianRequestExpired extends ApiError<CustodianRequestExpired>()("CustodianRequestExpired", {
  code: "custodian_request_expired",
  status: 410
}) {}

/** Too many self-created Silicons wait for one custodian (20). */
export class CustodianRequestPending extends ApiError<CustodianRequestPending>()("CustodianRequestPending", {
  code: "custodian_request_pending",
  status: 409
}) {}

/** An initial request decided for a Silicon that no longer waits for a custodian (deleted meanwhile). */
export class SiliconNotPending extends ApiError<SiliconNotPending>()("SiliconNotPending", {
  code: "silicon_not_pending",
  status: 409
}) {}

export class SiliconNotActive extends ApiError<SiliconNotActive>()("SiliconNotActive", {
  code: "silicon_not_active",
  status: 409
}) {}

export class AlreadyCustodian extends ApiError<AlreadyCustodian>()("AlreadyCustodian", {
  code: "already_custodian",
  status: 409
}) {}

export class TransferPending extends ApiError<TransferPending>()("TransferPending", {
  code: "transfer_pending",
  status: 409,
  details: Schema.Struct({ request_id: Schema.String })
}) {}

export class TransferNotFound extends ApiError<TransferNotFound>()("TransferNotFound", {
  code: "transfer_not_found",
  status: 404
}) {}

export class TransferToSelf extends ApiError<TransferToSelf>()("TransferToSelf", {
  code: "transfer_to_self",
  status: 422
}) {}

export class TransferStale extends ApiError<TransferStale>()("TransferStale", {
  code: "transfer_stale",
  status: 409
}) {}

export class WebhookNotSet extends ApiError<WebhookNotSet>()("WebhookNotSet", {
  code: "webhook_not_set",
  status: 409
}) {}

export class InvalidAssertion extends ApiError<InvalidAssertion>()("InvalidAssertion", {
  code: "invalid_assertion",
  status: 401
}) {}

export class KeyExists extends ApiError<KeyExists>()("KeyExists", {
  code: "key_exists",
  status: 409
}) {}

export class TooManyKeys extends ApiError<TooManyKeys>()("TooManyKeys", {
  code: "too_many_keys",
  status: 409,
  details: Schema.Struct({ limit: Schema.Int })
}) {}

export class KeyNotFound extends ApiError<KeyNotFound>()("KeyNotFound", {
  code: "key_not_found",
  status: 404
}) {}

export class DobImmutable extends ApiError<DobImmutable>()("DobImmutable", {
  code: "dob_immutable",
  status: 422
}) {}

/** The identity token's audience is not among the Silicon's allowed identity audiences. */
export class AudienceNotAllowed extends ApiError<AudienceNotAllowed>()("AudienceNotAllowed", {
  code: "audience_not_allowed",
  status: 403
}) {}

export class RequestTokenRequired extends ApiError<RequestTokenRequired>()("RequestTokenRequired", {
  code: "request_token_required",
  status: 401
}) {}

export class InvalidRequestToken extends ApiError<InvalidRequestToken>()("InvalidRequestToken", {
  code: "invalid_request_token",
  status: 401
}) {}
