import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Spec 2, Limits: a batch login names 1 to 100 applications. */
export const MAX_BATCH = 100

export class ApplicationsRequired extends ApiError<ApplicationsRequired>()("ApplicationsRequired", {
  code: "applications_required",
  status: 400,
  description: "No application named: a batch names 1 to 100 distinct applications"
}) {}

export class TooManyApplications extends ApiError<TooManyApplications>()("TooManyApplications", {
  code: "too_many_applications",
  status: 422,
  details: Schema.Struct({ limit: Schema.Number, given: Schema.Number }),
  description: "More than 100 applications in one batch"
}) {}

export class DuplicateApplications extends ApiError<DuplicateApplications>()("DuplicateApplications", {
  code: "duplicate_applications",
  status: 422,
  details: Schema.Struct({ app_ids: Schema.Array(Schema.String) }),
  description: "An application named twice in one batch"
}) {}

export class ApplicationUnavailable extends ApiError<ApplicationUnavailable>()("ApplicationUnavailable", {
  code: "application_unavailable",
  status: 422,
  details: Schema.Struct({ app_id: Schema.String, reason: Schema.Literal("unknown") }),
  description: "An application that is not registered: nothing was created"
}) {}

export class OrganizationRequired extends ApiError<OrganizationRequired>()("OrganizationRequired", {
  code: "organization_required",
  status: 422,
  details: Schema.Struct({ app_id: Schema.String }),
  description: "An application with no organization chosen: at least one is needed"
}) {}

export class NotAnActiveMember extends ApiError<NotAnActiveMember>()("NotAnActiveMember", {
  code: "not_an_active_member",
  status: 403,
  details: Schema.Struct({ app_id: Schema.String, organization_id: Schema.String }),
  description: "An organization the caller is not an active member of: nothing was created"
}) {}

export class ScopeVersionChanged extends ApiError<ScopeVersionChanged>()("ScopeVersionChanged", {
  code: "scope_version_changed",
  status: 409,
  details: Schema.Struct({ app_id: Schema.String, scope_version: Schema.Number }),
  description: "The application's permissions changed since they were shown: read them again and consent afresh"
}) {}

export class ScopeNotPermitted extends ApiError<ScopeNotPermitted>()("ScopeNotPermitted", {
  code: "scope_not_permitted",
  status: 422,
  details: Schema.Struct({ app_id: Schema.String, scopes: Schema.Array(Schema.String) }),
  description: "Approved scopes outside the application's app_scope"
}) {}

export class ReturnToNotRegistered extends ApiError<ReturnToNotRegistered>()("ReturnToNotRegistered", {
  code: "return_to_not_registered",
  status: 422,
  description: "A return_to that is not a registered callback URL of one of the applications"
}) {}
