import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** What a served picture says about itself. */
export interface ServedImage {
  readonly bytes: Uint8Array
  readonly contentType: string
  /** A strong validator of these exact bytes, unquoted. */
  readonly etag: string
  readonly cacheControl: string
}

/**
 * A picture apps show on their own pages (cross-origin), never run as a document, with its caching
 * headers; a request already holding this ETag (If-None-Match) gets 304 without the bytes.
 */
export const imageResponse = (image: ServedImage) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const etag = `"${image.etag}"`
    const headers = {
      etag,
      "cache-control": image.cacheControl,
      "cross-origin-resource-policy": "cross-origin",
      "content-security-policy": "default-src 'none'; sandbox"
    }
    const held = request.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")
    return held
      ? HttpServerResponse.empty({ status: 304, headers })
      : HttpServerResponse.uint8Array(image.bytes, { contentType: image.contentType, headers })
  })
