import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { strict } from "@platform/http"
import { Schema } from "effect"
import { errorResponse } from "@platform/http"
import { DobImmutable } from "../silicons/errors.ts"
import { AccountMe } from "../accounts/Me.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"

export const MePatch = strict(Schema.Struct({
  display_name: Schema.optional(Schema.String.annotations({ description: "1 to 100 characters, no control characters" })),
  timezone: Schema.optional(Schema.String.annotations({ description: "IANA time zone name" })),
  dob: Schema.optional(Schema.String.annotations({ description: "YYYY-MM-DD, in the past, not before 1900-01-01" }))
})).annotations({ identifier: "MePatch" })

export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("get", "/v1/me").addSuccess(AccountMe))
  .add(
    HttpApiEndpoint.patch("update", "/v1/me")
      .setPayload(MePatch)
      .addSuccess(AccountMe)
      .addError(errorResponse(DobImmutable))
      .annotate(
        OpenApi.Description,
        "Changes the given fields; unknown fields are refused (422). `version` goes up on every change. A Silicon's dob is its creation date: changing it is 422 dob_immutable."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Account")
{}
