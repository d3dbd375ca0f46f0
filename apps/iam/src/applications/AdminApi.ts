import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields, strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { PlatformAdminRequired } from "../platform-admins/errors.ts"
import { ApplicationPath } from "./Api.ts"
import { RegisteredApplication } from "./Application.ts"
import { ApplicationNotFound, ScopeNotPending } from "./errors.ts"
import { ApplicationScope } from "./scopes.ts"

const scopeList = (description: string) =>
  Schema.optionalWith(Schema.Array(ApplicationScope).pipe(Schema.maxItems(20)), { default: () => [] }).annotations({ description })

export const ScopeReviewRequest = strict(Schema.Struct({
  approve: scopeList("Pending scopes to add to app_scope (scope_version then goes up by one)"),
  reject: scopeList("Pending scopes to refuse")
})).annotations({ identifier: "ScopeReviewRequest" })

/** Platform admins review the critical scopes applications ask for (bearer of a Carbon with a current grant). */
export class ApplicationReviewsApi extends HttpApiGroup.make("applicationReviews")
  .add(
    HttpApiEndpoint.get("awaitingReview", "/api/v1/admin/applications")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(RegisteredApplication, "RegisteredApplicationPage"))
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "Applications with critical scopes awaiting review, by app_id.")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/v1/admin/applications/:app_id")
      .setPath(ApplicationPath)
      .addSuccess(RegisteredApplication)
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(ApplicationNotFound))
      .annotate(OpenApi.Description, "The whole registration of an application, its pending scopes included (never its secret).")
  )
  .add(
    HttpApiEndpoint.post("review", "/api/v1/admin/applications/:app_id/scope-reviews")
      .setPath(ApplicationPath)
      .setPayload(ScopeReviewRequest)
      .addSuccess(RegisteredApplication)
      .addError(errorResponse(PlatformAdminRequired))
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ScopeNotPending))
      .addError(errorResponse(ValidationFailed))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Approves and rejects pending critical scopes in one decision, recorded with the admin and the time. Approved scopes " +
          "take effect now and raise scope_version (logins then ask consent again). Every named scope must be pending (409 " +
          "scope_not_pending). Needs X-Step-Up-Token for platform_admin.application_review on this app_id."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Platform admin: application reviews")
{}
