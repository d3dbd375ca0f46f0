import { ApiError } from "@platform/http"

/** Authentication and permission errors of spec 1 (Errors: Authentication and permission). */

/** No credentials at all, where several kinds are taken. */
export class Unauthenticated extends ApiError<Unauthenticated>()("Unauthenticated", {
  code: "unauthenticated",
  status: 401
}) {}

export class AccountAuthRequired extends ApiError<AccountAuthRequired>()("AccountAuthRequired", {
  code: "account_auth_required",
  status: 401
}) {}

export class InvalidAuthorization extends ApiError<InvalidAuthorization>()("InvalidAuthorization", {
  code: "invalid_authorization",
  status: 401
}) {}

export class InvalidToken extends ApiError<InvalidToken>()("InvalidToken", {
  code: "invalid_token",
  status: 401
}) {}

export class TokenWrongAudience extends ApiError<TokenWrongAudience>()("TokenWrongAudience", {
  code: "token_wrong_audience",
  status: 401
}) {}

export class IdentityTokenNotAccepted extends ApiError<IdentityTokenNotAccepted>()("IdentityTokenNotAccepted", {
  code: "identity_token_not_accepted",
  status: 401
}) {}

export class TokenRevoked extends ApiError<TokenRevoked>()("TokenRevoked", {
  code: "token_revoked",
  status: 401
}) {}

export class SessionExpired extends ApiError<SessionExpired>()("SessionExpired", {
  code: "session_expired",
  status: 401
}) {}

export class CarbonOnly extends ApiError<CarbonOnly>()("CarbonOnly", {
  code: "carbon_only",
  status: 403
}) {}

export class SiliconOnly extends ApiError<SiliconOnly>()("SiliconOnly", {
  code: "silicon_only",
  status: 403
}) {}

export class SessionNotFound extends ApiError<SessionNotFound>()("SessionNotFound", {
  code: "session_not_found",
  status: 404
}) {}
/** A route that needs the account site's browser session (a hosted flow's continue, linking an identity). */
export class SessionRequired extends ApiError<SessionRequired>()("SessionRequired", { code: "session_required", status: 401 }) {}
