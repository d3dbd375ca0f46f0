import { ApiError } from "@platform/http"

export class ApplicationNotFound extends ApiError<ApplicationNotFound>()("ApplicationNotFound", {
  code: "application_not_found",
  status: 404
}) {}

export class ApplicationIdTaken extends ApiError<ApplicationIdTaken>()("ApplicationIdTaken", {
  code: "app_id_taken",
  status: 409
}) {}

/** Only the registering Carbon (or an admin of the owning organization) may manage the application's credentials. */
export class ApplicationOwnerRequired extends ApiError<ApplicationOwnerRequired>()("ApplicationOwnerRequired", {
  code: "application_owner_required",
  status: 403
}) {}

/** A review named a scope the application has not asked for, or one already decided. */
export class ScopeNotPending extends ApiError<ScopeNotPending>()("ScopeNotPending", {
  code: "scope_not_pending",
  status: 409
}) {}

export class BundleNotFound extends ApiError<BundleNotFound>()("BundleNotFound", {
  code: "bundle_not_found",
  status: 404
}) {}

export class BundleIdTaken extends ApiError<BundleIdTaken>()("BundleIdTaken", {
  code: "bundle_id_taken",
  status: 409
}) {}
