import type { HttpServerRequest } from "@effect/platform"
import { UrlParams } from "@effect/platform"
import { Effect } from "effect"

/**
 * The same request with its body already read: the router and the handlers
 * decode from these bytes instead of reading the stream again.
 */
export const withBufferedBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Buffer,
  json: unknown
): HttpServerRequest.HttpServerRequest => {
  const text = bytes.toString("utf8")
  const buffered: HttpServerRequest.HttpServerRequest = Object.create(request)
  Object.defineProperties(buffered, {
    text: { value: Effect.succeed(text) },
    json: { value: Effect.succeed(json) },
    arrayBuffer: {
      value: Effect.succeed(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    },
    urlParamsBody: { value: Effect.sync(() => UrlParams.fromInput(new URLSearchParams(text))) }
  })
  return buffered
}
