import { HttpApi, OpenApi } from "@effect/platform"
import { AppsApi } from "./apps/Api.ts"
import { AuthorsApi } from "./authors/Api.ts"
import { InvitesApi } from "./invites/Api.ts"
import { MeApi } from "./me/Api.ts"
import { DeliveryApi, ReleasesApi } from "./releases/Api.ts"
import { DiscoveryApi } from "./discovery/Api.ts"
import { SearchApi } from "./search/Api.ts"
import { ServiceApi } from "./service/Api.ts"
import { SigningApi } from "./signing/Api.ts"
import { PackagesApi } from "./packages/Api.ts"
import { TargetsApi } from "./targets/Api.ts"

/** The registry's whole contract (spec 2, Registry): other services and tests call it through HttpApiClient. */
export class RegistryApi extends HttpApi.make("registry")
  .add(ServiceApi)
  .add(MeApi)
  .add(SearchApi)
  .add(AppsApi)
  .add(AuthorsApi)
  .add(InvitesApi)
  .add(TargetsApi)
  .add(PackagesApi)
  .add(ReleasesApi)
  .add(DeliveryApi)
  .add(SigningApi)
  .add(DiscoveryApi)
  .annotate(OpenApi.Title, "Application registry")
  .annotate(
    OpenApi.Description,
    "Apps, authors, packages validated in a sandbox, signed releases, resolve, search and discovery for agents (spec 2)."
  )
{}
