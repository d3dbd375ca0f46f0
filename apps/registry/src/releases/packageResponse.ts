import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/**
 * A package's bytes as a download: application/gzip, a strong ETag (its SHA-256), never cached without asking
 * again (who may see the app is checked at every request); a request already holding the ETag gets 304.
 */
export const packageResponse = (served: { readonly id: string; readonly sha256: string }, bytes: Effect.Effect<Uint8Array>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const etag = `"${served.sha256}"`
    const headers = {
      etag,
      "cache-control": "private, no-cache",
      "content-disposition": `attachment; filename="${served.id}.tar.gz"`,
      "x-content-type-options": "nosniff"
    }
    const held = request.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")
    if (held === true) return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.uint8Array(yield* bytes, { contentType: "application/gzip", headers })
  })
