import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { strict } from "@platform/http"
import { Schema } from "effect"
import { CarbonMe } from "../accounts/Me.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"

export const MePatch = strict(Schema.Struct({
  display_name: Schema.optional(Schema.String.annotations({ description: "1 to 100 characters, no control characters" })),
  timezone: Schema.optional(Schema.String.annotations({ description: "IANA time zone name" })),
  dob: Schema.optional(Schema.String.annotations({ description: "YYYY-MM-DD, in the past, not before 1900-01-01" }))
})).annotations({ identifier: "MePatch" })

export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("get", "/v1/me").addSuccess(CarbonMe))
  .add(
    HttpApiEndpoint.patch("update", "/v1/me")
      .setPayload(MePatch)
      .addSuccess(CarbonMe)
      .annotate(
        OpenApi.Description,
        "Changes the given fields; unknown fields are refused (422). `version` goes up on every change."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Account")
{}
