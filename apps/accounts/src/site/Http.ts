import { hashedAssetResponse } from "@platform/http"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { SITE_ASSETS } from "./assets.ts"
import { compiledGroup } from "@platform/service"

export const SiteLive = compiledGroup(AccountsApi, "site", (handlers) =>
  handlers.handle("asset", ({ path }) => Effect.succeed(hashedAssetResponse(SITE_ASSETS, path.file))))
