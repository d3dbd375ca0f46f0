import { HttpApiBuilder } from "@effect/platform"
import { hashedAssetResponse } from "@platform/http"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { SITE_ASSETS } from "./assets.ts"

export const SiteLive = HttpApiBuilder.group(AccountsApi, "site", (handlers) =>
  handlers.handle("asset", ({ path }) => Effect.succeed(hashedAssetResponse(SITE_ASSETS, path.file))))
