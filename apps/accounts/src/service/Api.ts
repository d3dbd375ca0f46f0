import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse } from "@platform/http"
import { healthzEndpoint, readyzEndpoint } from "@platform/service"
import { Schema } from "effect"
import { RequirementsNotMet } from "./errors.ts"

export const Meta = Schema.Struct({
  name: Schema.String,
  version: Schema.String,
  environment: Schema.Literal("development", "production"),
  public_url: Schema.String,
  apps_url: Schema.String,
  docs_url: Schema.String,
  providers: Schema.Struct({ idp_a: Schema.Boolean, idp_b: Schema.Boolean }),
  delivery: Schema.Array(Schema.Literal("webhook", "stream")).annotations({
    description: "How events reach apps on this deployment; empty until event delivery is enabled"
  })
}).annotations({ identifier: "Meta" })

export const Capabilities = Schema.Struct({
  versions: Schema.Struct({ current: Schema.String, supported: Schema.Array(Schema.String) }),
  features: Schema.Array(Schema.String),
  requirements: Schema.optional(Schema.Struct({ satisfied: Schema.Literal(true), required: Schema.Array(Schema.String) }))
}).annotations({ identifier: "Capabilities" })

export const CapabilitiesQuery = Schema.Struct({
  require: Schema.optional(
    Schema.String.annotations({ description: "Comma list of features, or version:V, that the caller needs" })
  )
})

export class ServiceApi extends HttpApiGroup.make("service")
  .add(healthzEndpoint)
  .add(readyzEndpoint)
  .add(HttpApiEndpoint.get("meta", "/v1/meta").addSuccess(Meta))
  .add(
    HttpApiEndpoint.get("capabilities", "/v1/capabilities")
      .setUrlParams(CapabilitiesQuery)
      .addSuccess(Capabilities)
      .addError(errorResponse(RequirementsNotMet))
  )
  .annotate(OpenApi.Title, "Service")
  .annotate(OpenApi.Description, "Probes, service metadata and capabilities")
{}

