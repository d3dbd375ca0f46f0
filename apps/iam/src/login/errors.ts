import { ApiError } from "@platform/http"

/** No active Carbon owns the email, phone or id a login named (spec 2: a deliberate disclosure). */
export class IdentityNotFound extends ApiError<IdentityNotFound>()("IdentityNotFound", {
  code: "identity_not_found",
  status: 404
}) {}

/** Signing up with an email or phone an active Carbon already has verified: log in instead (disclosed, as login's 404 is). */
export class IdentityExists extends ApiError<IdentityExists>()("IdentityExists", {
  code: "identity_exists",
  status: 409
}) {}

export class SignupNotFound extends ApiError<SignupNotFound>()("SignupNotFound", {
  code: "signup_not_found",
  status: 404
}) {}

/** The 48-hour signup session is over. */
export class SignupExpired extends ApiError<SignupExpired>()("SignupExpired", {
  code: "signup_expired",
  status: 410
}) {}

export class SignupAlreadyCompleted extends ApiError<SignupAlreadyCompleted>()("SignupAlreadyCompleted", {
  code: "signup_already_completed",
  status: 409
}) {}
