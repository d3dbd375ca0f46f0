import { ApiError } from "@platform/http"
import { Effect, Schema } from "effect"

/**
 * The errors of accounts' internal identity routes. Accounts answers them and its other routes use
 * the same classes (ids, contact details), so they are defined once, here, where both sides see them.
 */

/** No `Authorization` header on an internal route (401). */
export class InternalTokenRequired extends ApiError<InternalTokenRequired>()("InternalTokenRequired", {
  code: "internal_token_required",
  status: 401
}) {}

/** An `Authorization` header that is not `Bearer <ACCOUNTS_INTERNAL_TOKEN>` (401). */
export class InvalidInternalToken extends ApiError<InvalidInternalToken>()("InvalidInternalToken", {
  code: "invalid_internal_token",
  status: 401
}) {}

/** Accounts has no internal token configured, so its internal routes are off (403). */
export class InternalApiDisabled extends ApiError<InternalApiDisabled>()("InternalApiDisabled", {
  code: "internal_api_disabled",
  status: 403
}) {}

/** No account answers to what was asked (on the identity routes: the email or phone verified, the id, the uuid). */
export class AccountNotFound extends ApiError<AccountNotFound>()("AccountNotFound", {
  code: "account_not_found",
  status: 404
}) {}

export const InvalidIdReason = Schema.Literal("invalid", "reserved_word")
export type InvalidIdReason = typeof InvalidIdReason.Type

export class InvalidId extends ApiError<InvalidId>()("InvalidId", {
  code: "invalid_id",
  status: 422,
  details: Schema.Struct({ reason: InvalidIdReason })
}) {}

export class IdTaken extends ApiError<IdTaken>()("IdTaken", {
  code: "id_taken",
  status: 409,
  details: Schema.Struct({
    suggestions: Schema.Array(Schema.String).annotations({ description: "A few free ids close to the one asked" })
  })
}) {}

export class IdReserved extends ApiError<IdReserved>()("IdReserved", {
  code: "id_reserved",
  status: 409,
  details: Schema.Struct({
    reserved_until: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
  })
}) {}

/** The email address is verified on another account. */
export class EmailInUse extends ApiError<EmailInUse>()("EmailInUse", {
  code: "email_in_use",
  status: 409
}) {}

/** The phone number is verified on another account. */
export class PhoneInUse extends ApiError<PhoneInUse>()("PhoneInUse", {
  code: "phone_in_use",
  status: 409
}) {}

/**
 * Accounts could not be asked (unreachable, no answer in time, a 5xx, an answer outside the
 * contract, or the internal token refused). The caller answers 503 with it, as it stands.
 */
export class AccountsUnavailable extends ApiError<AccountsUnavailable>()("AccountsUnavailable", {
  code: "accounts_unavailable",
  status: 503
}) {}

/**
 * The account exists but is not active (deleted, or a Silicon waiting for its custodian). Accounts
 * answers such an account with its status; `requireActive` turns that into this refusal.
 */
export class IdentityNotActive extends ApiError<IdentityNotActive>()("IdentityNotActive", {
  code: "identity_not_active",
  status: 403,
  details: Schema.Struct({ status: Schema.String })
}) {}

/** The identity when its account is active, else IdentityNotActive. */
export const requireActive = <I extends { readonly status: string }>(identity: I): Effect.Effect<I, IdentityNotActive> =>
  identity.status === "active"
    ? Effect.succeed(identity)
    : Effect.fail(
      new IdentityNotActive({ message: `This account is ${identity.status}, not active.`, details: { status: identity.status } })
    )

/** The registry syncs an app id that an app of another source (fake, first-party) holds at accounts. */
export class AppSourceConflict extends ApiError<AppSourceConflict>()("AppSourceConflict", {
  code: "app_source_conflict",
  status: 409
}) {}
