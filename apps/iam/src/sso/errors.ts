import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** The organization holds no SSO entitlement (a platform admin grants it). */
export class SsoNotEntitled extends ApiError<SsoNotEntitled>()("SsoNotEntitled", {
  code: "sso_not_entitled",
  status: 409
}) {}

/** Removing an entitlement the organization does not hold. */
export class SsoEntitlementNotFound extends ApiError<SsoEntitlementNotFound>()("SsoEntitlementNotFound", {
  code: "sso_entitlement_not_found",
  status: 404
}) {}

export class SsoSetupLinkNotFound extends ApiError<SsoSetupLinkNotFound>()("SsoSetupLinkNotFound", {
  code: "sso_setup_link_not_found",
  status: 404
}) {}

export class SsoSetupLinkUsed extends ApiError<SsoSetupLinkUsed>()("SsoSetupLinkUsed", {
  code: "sso_setup_link_used",
  status: 409
}) {}

export class SsoSetupLinkExpired extends ApiError<SsoSetupLinkExpired>()("SsoSetupLinkExpired", {
  code: "sso_setup_link_expired",
  status: 410
}) {}

/** The entitlement's number of connections (pending and active) is reached. */
export class SsoConnectionLimit extends ApiError<SsoConnectionLimit>()("SsoConnectionLimit", {
  code: "sso_connection_limit",
  status: 409,
  details: Schema.Struct({ max_connections: Schema.Number })
}) {}

export class SsoConnectionNotFound extends ApiError<SsoConnectionNotFound>()("SsoConnectionNotFound", {
  code: "sso_connection_not_found",
  status: 404
}) {}

/** Signing in through a connection that is not active. */
export class SsoConnectionInactive extends ApiError<SsoConnectionInactive>()("SsoConnectionInactive", {
  code: "sso_connection_inactive",
  status: 409
}) {}

/** The issuer's discovery document could not be read or used (unreachable, refused by the outbound guard, not OpenID). */
export class SsoIssuerUnusable extends ApiError<SsoIssuerUnusable>()("SsoIssuerUnusable", {
  code: "sso_issuer_unusable",
  status: 422,
  details: Schema.Struct({ reason: Schema.String })
}) {}

/** The callback's state is unknown, used, expired, or was started in another browser. */
export class SsoStateInvalid extends ApiError<SsoStateInvalid>()("SsoStateInvalid", {
  code: "sso_state_invalid",
  status: 400
}) {}

/** The identity provider refused the sign-in, or did not answer. */
export class SsoProviderError extends ApiError<SsoProviderError>()("SsoProviderError", {
  code: "sso_provider_error",
  status: 502
}) {}

/** The provider's ID token did not check out (signature, issuer, audience, nonce or expiry). */
export class SsoTokenInvalid extends ApiError<SsoTokenInvalid>()("SsoTokenInvalid", {
  code: "sso_token_invalid",
  status: 401
}) {}

/** The provider's verified email is not an active Carbon member of the connection's organization. */
export class SsoNotAMember extends ApiError<SsoNotAMember>()("SsoNotAMember", {
  code: "sso_not_a_member",
  status: 403
}) {}

/** A provider event whose signature or timestamp does not check out. */
export class SsoSignatureInvalid extends ApiError<SsoSignatureInvalid>()("SsoSignatureInvalid", {
  code: "invalid_signature",
  status: 401
}) {}
