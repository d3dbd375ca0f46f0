import { HttpApi, OpenApi } from "@effect/platform"
import { DiscoveryApi } from "./discovery/Api.ts"
import { MeApi } from "./me/Api.ts"
import { SearchApi } from "./search/Api.ts"
import { ServiceApi } from "./service/Api.ts"

/** The registry's whole contract (spec 2, Registry): other services and tests call it through HttpApiClient. */
export class RegistryApi extends HttpApi.make("registry")
  .add(ServiceApi)
  .add(MeApi)
  .add(SearchApi)
  .add(DiscoveryApi)
  .annotate(OpenApi.Title, "Application registry")
  .annotate(
    OpenApi.Description,
    "Apps, authors, packages validated in a sandbox, signed releases, resolve, search and discovery for agents (spec 2)."
  )
{}
