import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { healthzEndpoint, readyzEndpoint } from "@platform/service"
import { Schema } from "effect"

export const Meta = Schema.Struct({
  name: Schema.Literal("iam"),
  version: Schema.String,
  environment: Schema.Literal("development", "production"),
  public_url: Schema.String,
  accounts_url: Schema.String,
  docs_url: Schema.String,
  versions: Schema.Struct({ current: Schema.String, supported: Schema.Array(Schema.String) })
}).annotations({ identifier: "IamMeta" })

export class ServiceApi extends HttpApiGroup.make("service")
  .add(healthzEndpoint)
  .add(readyzEndpoint)
  .add(HttpApiEndpoint.get("meta", "/api/v1/meta").addSuccess(Meta))
  .annotate(OpenApi.Title, "Service")
  .annotate(OpenApi.Description, "Probes and service metadata")
{}
