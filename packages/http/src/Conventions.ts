import { type HttpApi, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either, Option, Schema } from "effect"
import type { ApiErrorInstance } from "./ApiError.ts"
import { type ApiVersioning, isVersioned, selectVersion } from "./ApiVersion.ts"
import { withBufferedBody } from "./BufferedRequest.ts"
import { mediaTypeOf } from "./ContentType.ts"
import { respondWithError, translateFailure } from "./ErrorTranslation.ts"
import { InvalidContentType, InvalidJson, PayloadTooLarge, UnsupportedMediaType } from "./errors.ts"
import { readBody } from "./RequestBody.ts"
import { requestIdFrom } from "./RequestId.ts"
import { type ExtraRoute, makeRouteTable, type Route } from "./RouteTable.ts"

export interface ConventionsOptions {
  readonly api: HttpApi.HttpApi.Any
  readonly versioning?: ApiVersioning
  readonly extraRoutes?: ReadonlyArray<ExtraRoute>
  /**
   * Wraps each request once its body is read and checked, around an app
   * that always answers with a response (its failures already translated):
   * the place for idempotency, which stores and replays whole responses.
   */
  readonly around?: AroundHandled
}

export type AroundHandled = (
  handled: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiErrorInstance, HttpServerRequest.HttpServerRequest>

const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

type Prepared =
  | { readonly _tag: "Ready"; readonly request: HttpServerRequest.HttpServerRequest; readonly json: unknown }
  | { readonly _tag: "Refused"; readonly error: ApiErrorInstance; readonly closeConnection: boolean }

/** Reads and checks the body of a route that takes one: size, media type, JSON syntax. */
const prepareBody = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route
): Effect.Effect<Prepared> =>
  Effect.gen(function*() {
    const read = yield* readBody(NodeHttpServerRequest.toIncomingMessage(request), route.maxBodyBytes)
    if (read._tag !== "Read") {
      return {
        _tag: "Refused",
        closeConnection: true,
        error: new PayloadTooLarge({
          message: `The request body is larger than this route's limit of ${route.maxBodyBytes} bytes.`,
          details: { limit_bytes: route.maxBodyBytes }
        })
      }
    }
    const expected = [...route.bodyTypes.keys()]
    const header = request.headers["content-type"]
    const empty = read.bytes.length === 0
    if (header === undefined && !empty) {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidContentType({
          message: `A request body needs a Content-Type header (${expected.join(" or ")}).`,
          details: { expected }
        })
      }
    }
    const mediaType = header === undefined ? expected[0]! : mediaTypeOf(header)
    if (mediaType === undefined) {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidContentType({ message: "The Content-Type header is not a valid media type.", details: { expected } })
      }
    }
    const kind = route.bodyTypes.get(mediaType)
    if (kind === undefined) {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new UnsupportedMediaType({
          message: `This route does not take ${mediaType}; send ${expected.join(" or ")}.`,
          details: { received: mediaType, expected }
        })
      }
    }
    if (kind !== "Json") return { _tag: "Ready", request: withBufferedBody(request, read.bytes, undefined), json: undefined }
    // An empty JSON body counts as an empty object.
    const bytes = empty ? Buffer.from("{}") : read.bytes
    let json: unknown
    try {
      json = JSON.parse(bytes.toString("utf8"))
    } catch {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidJson({ message: "The request body is not valid JSON." })
      }
    }
    return { _tag: "Ready", request: withBufferedBody(request, bytes, json), json }
  })

/**
 * The shared HTTP conventions, applied once around a whole HttpApi app:
 * request ids, dated versions, body limits and media types, and one error
 * envelope for every failure including the framework's own.
 */
export const conventions = (options: ConventionsOptions) => {
  const table = makeRouteTable(options.api, options.extraRoutes)
  const versioning = options.versioning
  const versionHeader = versioning?.header.toLowerCase()
  const around = options.around
  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.gen(function*() {
      const started = performance.now()
      const original = yield* HttpServerRequest.HttpServerRequest
      const requestId = requestIdFrom(original.headers["x-request-id"])
      const path = pathOf(original.url)
      const route = table.match(original.method, path)
      const headers: Record<string, string> = { "x-request-id": requestId }
      let response: HttpServerResponse.HttpServerResponse | undefined
      if (versioning && versionHeader && isVersioned(versioning, path)) {
        const version = selectVersion(versioning, original.headers[versionHeader])
        headers[versioning.header] = typeof version === "string" ? version : versioning.current
        headers["vary"] = versioning.header
        if (typeof version !== "string") response = respondWithError(version)
      }
      let request = original
      let json: unknown = undefined
      if (response === undefined && route !== undefined && route.bodyTypes.size > 0) {
        const prepared = yield* prepareBody(original, route)
        if (prepared._tag === "Refused") {
          response = respondWithError(prepared.error)
          if (prepared.closeConnection) headers["connection"] = "close"
        } else {
          request = prepared.request
          json = prepared.json
        }
      }
      if (response === undefined) {
        const bodyDecodes = () =>
          Option.match(route?.payloadSchema ?? Option.none(), {
            onNone: () => true,
            onSome: (schema) => Either.isRight(Schema.decodeUnknownEither(schema)(json))
          })
        const handled = app.pipe(
          Effect.catchAllCause((cause) => translateFailure(cause, { request, path, route, table, requestId, bodyDecodes }))
        )
        const wrapped = around === undefined
          ? handled
          : Effect.catchAll(around(handled), (error) => Effect.succeed(respondWithError(error)))
        response = yield* (request === original
          ? wrapped
          : Effect.provideService(wrapped, HttpServerRequest.HttpServerRequest, request))
      }
      const final = HttpServerResponse.setHeaders(response, headers)
      yield* Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          method: original.method,
          route: route?.path ?? "unmatched",
          status: final.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          request_id: requestId
        })
      )
      return final
    })
}
