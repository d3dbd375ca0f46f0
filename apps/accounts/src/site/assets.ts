import { hashedAssets } from "@platform/http"
import { join } from "node:path"

/** The account site's style sheets and scripts, under content-hashed names. */
export const SITE_ASSETS = hashedAssets(join(import.meta.dirname, "assets"))

export const assetUrl = SITE_ASSETS.url
