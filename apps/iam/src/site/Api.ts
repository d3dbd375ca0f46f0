import { HttpApiGroup, OpenApi } from "@effect/platform"
import { hashedAssetEndpoint } from "@platform/http"

/** The static files of IAM's pages, named by content hash. */
export class SiteApi extends HttpApiGroup.make("site")
  .add(hashedAssetEndpoint("IAM's pages"))
  .annotate(OpenApi.Title, "Site")
{}
