import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { assetByFile, IMMUTABLE } from "./assets.ts"

export const SiteLive = HttpApiBuilder.group(AccountsApi, "site", (handlers) =>
  handlers.handle("asset", ({ path }) => {
    const asset = assetByFile(path.file)
    return Effect.succeed(
      asset === undefined
        ? HttpServerResponse.text("No such file.", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } })
        : HttpServerResponse.uint8Array(asset.body, {
          contentType: asset.contentType,
          headers: { "cache-control": IMMUTABLE, "x-content-type-options": "nosniff" }
        })
    )
  }))
