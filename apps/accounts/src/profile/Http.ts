import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { IMMUTABLE } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { PhotoNotFound } from "./errors.ts"
import { Photos } from "./Photos.ts"

/** A photo URL names one image forever: a year of caching, and revalidation by ETag answers 304. */
export const PhotosLive = HttpApiBuilder.group(AccountsApi, "photos", (handlers) =>
  Effect.gen(function*() {
    const photos = yield* Photos
    return handlers.handle("get", ({ path }) =>
      Effect.gen(function*() {
        const found = yield* photos.find(path.photo_id)
        if (Option.isNone(found)) return yield* new PhotoNotFound({ message: "No photo has this id (it may have been replaced)." })
        const etag = `"${path.photo_id}"`
        const headers = {
          etag,
          "cache-control": IMMUTABLE,
          "cross-origin-resource-policy": "cross-origin",
          "content-security-policy": "default-src 'none'; sandbox"
        }
        const request = yield* HttpServerRequest.HttpServerRequest
        if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")) {
          return HttpServerResponse.empty({ status: 304, headers })
        }
        return HttpServerResponse.uint8Array(found.value.bytes, { contentType: found.value.contentType, headers })
      }))
  })).pipe(Layer.provide(Photos.Default))
