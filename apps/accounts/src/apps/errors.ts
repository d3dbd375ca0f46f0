import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** App and internal-route errors of spec 1 (Errors: "Authentication and permission", "Proofs and apps"). */

export class AppCredentialsRequired extends ApiError<AppCredentialsRequired>()("AppCredentialsRequired", {
  code: "app_credentials_required",
  status: 401
}) {}

export class InvalidAppCredentials extends ApiError<InvalidAppCredentials>()("InvalidAppCredentials", {
  code: "invalid_app_credentials",
  status: 401
}) {}

export class AppDisabled extends ApiError<AppDisabled>()("AppDisabled", {
  code: "app_disabled",
  status: 403
}) {}

/** Basic credentials of one app on another app's route. */
export class AppMismatch extends ApiError<AppMismatch>()("AppMismatch", {
  code: "app_mismatch",
  status: 403
}) {}

export class NotAppOwner extends ApiError<NotAppOwner>()("NotAppOwner", {
  code: "not_app_owner",
  status: 403
}) {}

export class UnknownApp extends ApiError<UnknownApp>()("UnknownApp", {
  code: "unknown_app",
  status: 404
}) {}

/** The registry syncs an app id that an app of another source (fake, first-party) holds here (the shared contract's error). */
export { AppSourceConflict } from "@platform/accounts-identity-api"

export class AppIdTaken extends ApiError<AppIdTaken>()("AppIdTaken", {
  code: "app_id_taken",
  status: 409
}) {}

export class ConfigVersionConflict extends ApiError<ConfigVersionConflict>()("ConfigVersionConflict", {
  code: "config_version_conflict",
  status: 409,
  details: Schema.Struct({ config_version: Schema.Int.annotations({ description: "The current version" }) })
}) {}
