import { hashedAssetResponse } from "@platform/http"
import { Effect } from "effect"
import { IamApi } from "../api.ts"
import { IAM_ASSETS } from "./assets.ts"
import { compiledGroup } from "@platform/service"

export const SiteLive = compiledGroup(IamApi, "site", (handlers) =>
  handlers.handle("asset", ({ path }) => Effect.succeed(hashedAssetResponse(IAM_ASSETS, path.file))))
