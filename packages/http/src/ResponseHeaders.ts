import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** Adds headers to whatever response this request ends with, typed success or error alike. */
export const addResponseHeaders = (headers: Record<string, string>): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/** On every response: a browser must take the declared Content-Type, never guess another. */
export const NOSNIFF = { "x-content-type-options": "nosniff" } as const

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const

/** Responses that carry secrets or per-caller state must never be cached. */
export const noStore: Effect.Effect<void> = addResponseHeaders(NO_STORE)

/** A public document any origin may read and caches may keep for `maxAgeSeconds`. */
export const publicDocument = (maxAgeSeconds: number): Effect.Effect<void> =>
  addResponseHeaders({
    "access-control-allow-origin": "*",
    "cache-control": `public, max-age=${maxAgeSeconds}`
  })
