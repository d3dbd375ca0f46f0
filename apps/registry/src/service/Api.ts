import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { healthzEndpoint, readyzEndpoint } from "@platform/service"
import { Schema } from "effect"

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  service: Schema.Literal("registry"),
  version: Schema.String.annotations({ description: "The service's release, e.g. 0.1.2" })
}).annotations({ identifier: "RegistryHealth" })

export class ServiceApi extends HttpApiGroup.make("service")
  .add(healthzEndpoint)
  .add(readyzEndpoint)
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Description, "Spec 2's health document: {status ok, service, version}.")
  )
  .annotate(OpenApi.Title, "Service")
  .annotate(OpenApi.Description, "Probes and the health document")
{}
