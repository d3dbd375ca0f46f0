import { ApiError } from "@platform/http"

/** Errors of a round trip to an identity provider, from a hosted flow or from linking an identity. */

/** A provider the app (or the account site) has not enabled or has no client for. */
export class MethodNotEnabledForMove extends ApiError<MethodNotEnabledForMove>()("MethodNotEnabledForMove", {
  code: "method_not_enabled",
  status: 403
}) {}
/** The identity is linked to another account (a provider sign-up meanwhile, or a link). */
export class IdentityInUse extends ApiError<IdentityInUse>()("IdentityInUse", { code: "identity_in_use", status: 409 }) {}
/** The identity provider could not be reached to start a round trip. */
export class ProviderUnavailable extends ApiError<ProviderUnavailable>()("ProviderUnavailable", {
  code: "provider_unavailable",
  status: 503
}) {}
