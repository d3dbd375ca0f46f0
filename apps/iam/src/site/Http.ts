import { HttpApiBuilder } from "@effect/platform"
import { hashedAssetResponse } from "@platform/http"
import { Effect } from "effect"
import { IamApi } from "../api.ts"
import { IAM_ASSETS } from "./assets.ts"

export const SiteLive = HttpApiBuilder.group(IamApi, "site", (handlers) =>
  handlers.handle("asset", ({ path }) => Effect.succeed(hashedAssetResponse(IAM_ASSETS, path.file))))
