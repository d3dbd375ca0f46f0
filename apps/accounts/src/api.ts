import { HttpApi, OpenApi } from "@effect/platform"
import { errorResponse, InternalError, MethodNotAllowed, RouteNotFound, UnsupportedVersion } from "@platform/http"
import { DiscoveryApi } from "./discovery/Api.ts"
import { ServiceApi } from "./service/Api.ts"
import { SERVICE_VERSION } from "./versions.ts"

/** The accounts service's whole HTTP contract; `/openapi.json` is generated from it. */
export class AccountsApi extends HttpApi.make("accounts")
  .add(ServiceApi)
  .add(DiscoveryApi)
  .addError(errorResponse(UnsupportedVersion))
  .addError(errorResponse(InternalError))
  .addError(errorResponse(RouteNotFound))
  .addError(errorResponse(MethodNotAllowed))
  .annotate(OpenApi.Title, "Accounts")
  .annotate(OpenApi.Version, SERVICE_VERSION)
  .annotate(
    OpenApi.Description,
    "Carbon and Silicon accounts and the OAuth 2.0 / OpenID Connect provider. Every error body is {\"error\":{\"code\",\"message\",\"hint\"?,\"details\"?}}."
  )
{}
