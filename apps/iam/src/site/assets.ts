import { hashedAssets } from "@platform/http"
import { join } from "node:path"

/** IAM's style sheet and page scripts, under content-hashed names. */
export const IAM_ASSETS = hashedAssets(join(import.meta.dirname, "assets"))
