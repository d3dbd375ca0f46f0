import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited, strict } from "@platform/http"
import { Schema } from "effect"
import { OptionalAccountAuth } from "../auth/OptionalAccountAuth.ts"

const HttpsUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((value) => {
    try {
      return new URL(value).protocol === "https:"
    } catch {
      return false
    }
  }, { message: () => "must be an https URL" })
)

export const ReportInput = strict(Schema.Struct({
  message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000)),
  pr_url: Schema.optional(HttpsUrl)
})).annotations({ identifier: "ReportInput" })

export const Report = Schema.Struct({
  report_id: Schema.String,
  status: Schema.Literal("received"),
  received_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "Report" })

export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.post("create", "/v1/reports")
      .setPayload(ReportInput)
      .addSuccess(Report, { status: 201 })
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Report a problem, signed in (a bearer token or the account site's cookie; the report records the account) or anonymously. Idempotent with Idempotency-Key; 5 per hour per IP."
      )
  )
  .middleware(OptionalAccountAuth)
  .annotate(OpenApi.Title, "Reports")
{}
