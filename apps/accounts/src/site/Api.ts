import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"

const Asset = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/css" }))

/** The account site's static files, named by content hash. */
export class SiteApi extends HttpApiGroup.make("site")
  .add(
    HttpApiEndpoint.get("asset", "/assets/:file")
      .setPath(Schema.Struct({ file: Schema.String.pipe(Schema.maxLength(100)) }))
      .addSuccess(Asset)
      .addError(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain" })), { status: 404 })
      .annotate(
        OpenApi.Description,
        "A style sheet, script or image of the account site under its content-hashed name (such as site.3f2a9c1b04de.css), cached for a year (immutable); another name is 404."
      )
  )
  .annotate(OpenApi.Title, "Account site")
{}
