import { HttpApiGroup, OpenApi } from "@effect/platform"
import { hashedAssetEndpoint } from "@platform/http"

/** The account site's static files, named by content hash. */
export class SiteApi extends HttpApiGroup.make("site")
  .add(hashedAssetEndpoint("the account site"))
  .annotate(OpenApi.Title, "Account site")
{}
