import { type HttpApi, type HttpApiSchema, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either, Option, Runtime, Schema } from "effect"
import type { ApiErrorInstance } from "./ApiError.ts"
import { type ApiVersioning, isVersioned, selectVersion } from "./ApiVersion.ts"
import { withBufferedBody } from "./BufferedRequest.ts"
import { mediaTypeOf } from "./ContentType.ts"
import { durationSince, type RequestLogLine } from "./RequestLog.ts"
import { writeResponse } from "./NodeResponse.ts"
import { respondWithError, translateFailure } from "./ErrorTranslation.ts"
import { InvalidBody, InvalidContentType, InvalidJson, RequestTimeout, PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from "./errors.ts"
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "./JsonLimits.ts"
import { parameterRefusal } from "./ParameterCheck.ts"
import { readBody } from "./RequestBody.ts"
import { requestIdFrom } from "./RequestId.ts"
import { NOSNIFF } from "./ResponseHeaders.ts"
import type { ErrorFormat } from "./ErrorFormat.ts"
import type { EnvelopeStyle } from "./ErrorResponse.ts"
import { pathOf } from "./RequestUrl.ts"
import { type ExtraRoute, makeRouteTable, type Route, type RouteTable } from "./RouteTable.ts"
import { jsonTextProblems, textProblem } from "./TextRules.ts"

export interface ConventionsOptions {
  readonly api: HttpApi.HttpApi.Any
  readonly versioning?: ApiVersioning
  readonly extraRoutes?: ReadonlyArray<ExtraRoute>
  /** The API's route table when the caller has built it already (the server routes with the same one). */
  readonly table?: RouteTable
  /**
   * Wraps each request once its body is read and checked, around an app
   * that always answers with a response (its failures already translated):
   * the place for idempotency, which stores and replays whole responses.
   */
  readonly around?: AroundHandled
  /**
   * Whether a defect means a dependency (the database) is out of reach for now: such a request
   * answers 503 with Retry-After (or in the route's ErrorFormat) instead of 500. Default: none does.
   */
  readonly unavailable?: (defect: unknown) => boolean
  /**
   * The service's error page: on a page route (HtmlPage) a request that asks for text/html gets every
   * failure as this page, in the error's status, instead of JSON (a browser shows it; a script asking
   * for JSON still gets the envelope). Default: the envelope everywhere.
   */
  readonly errorPage?: (error: ApiErrorInstance) => HttpServerResponse.HttpServerResponse
  /** How error envelopes write empty members (default `compact`; see EnvelopeStyle). */
  readonly envelope?: EnvelopeStyle
  /**
   * Runs first on every request, matched or not: its headers go on every response, and a refusal
   * answers at once (the registry's rate limits with their RateLimit-* headers).
   */
  readonly admit?: Admission
  /**
   * Writes each request's log line (e.g. writeRequestLine, or nothing when INFO lines are off).
   * Default: an INFO line through Effect's logger.
   */
  readonly logRequest?: (line: RequestLogLine) => void
}

export type Admission = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route | undefined
) => Effect.Effect<Admitted>

export interface Admitted {
  readonly headers: Readonly<Record<string, string>>
  readonly refusal?: ApiErrorInstance
}

/** Returns `handled` itself when it has nothing to do for this request. */
export type AroundHandled = (
  request: HttpServerRequest.HttpServerRequest,
  handled: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiErrorInstance, HttpServerRequest.HttpServerRequest>

/** A browser's navigation asks for text/html; fetch and API clients ask for JSON or anything. */
const asksForHtml = (accept: string | undefined): boolean => accept !== undefined && accept.includes("text/html")

type Prepared =
  | { readonly _tag: "Ready"; readonly request: HttpServerRequest.HttpServerRequest; readonly json: unknown }
  | { readonly _tag: "Refused"; readonly error: ApiErrorInstance; readonly closeConnection: boolean }

type MediaTypeChecked =
  | { readonly _tag: "Accepted"; readonly kind: HttpApiSchema.Encoding["kind"]; readonly empty: boolean }
  | Extract<Prepared, { _tag: "Refused" }>

/** The body's media type is one the route takes (an empty body may omit it). */
const mediaTypeCheck = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route,
  empty: boolean
): MediaTypeChecked => {
  const expected = [...route.bodyTypes.keys()]
  const header = request.headers["content-type"]
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
  return { _tag: "Accepted", kind, empty }
}

const tooLarge = (route: Route): Prepared => ({
  _tag: "Refused",
  closeConnection: true,
  error: new PayloadTooLarge({
    message: `The request body is larger than this route's limit of ${route.maxBodyBytes} bytes.`,
    details: { limit_bytes: route.maxBodyBytes }
  })
})

/**
 * A streamed body (StreamedBody) is left unread for its handler: only a declared size over the
 * limit and the media type are checked here.
 */
const checkStreamedBody = (request: HttpServerRequest.HttpServerRequest, route: Route): Prepared => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > route.maxBodyBytes) return tooLarge(route)
  const media = mediaTypeCheck(request, route, declared === 0)
  return media._tag === "Refused" ? media : { _tag: "Ready", request, json: undefined }
}

/** Reads and checks the body of a route that takes one: size, media type, JSON syntax. */
const prepareBody = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route
): Effect.Effect<Prepared> =>
  Effect.gen(function*() {
    const read = yield* readBody(NodeHttpServerRequest.toIncomingMessage(request), route.maxBodyBytes)
    if (read._tag !== "Read") return tooLarge(route)
    const media = mediaTypeCheck(request, route, read.bytes.length === 0)
    if (media._tag === "Refused") return media
    const { empty, kind } = media
    if (kind !== "Json") {
      const problems = kind === "UrlParams" ? formTextProblems(read.bytes.toString("utf8")) : {}
      // Without a Content-Type the router reads the body as JSON: an empty form is then no parameters.
      const json = kind === "UrlParams" && empty ? {} : undefined
      return Object.keys(problems).length > 0
        ? invalidText(problems)
        : { _tag: "Ready", request: withBufferedBody(request, read.bytes, json), json }
    }
    // An empty JSON body counts as an empty object.
    const bytes = empty ? Buffer.from("{}") : read.bytes
    const text = bytes.toString("utf8")
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidJson({ message: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.` })
      }
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidJson({ message: "The request body is not valid JSON." })
      }
    }
    if (route.jsonObjectBody && (json === null || typeof json !== "object" || Array.isArray(json))) {
      return {
        _tag: "Refused",
        closeConnection: false,
        error: new InvalidBody({ message: "The request body must be a JSON object." })
      }
    }
    const problems = jsonTextProblems(json)
    if (Object.keys(problems).length > 0) return invalidText(problems)
    return { _tag: "Ready", request: withBufferedBody(request, bytes, json), json }
  })

const formTextProblems = (text: string): Record<string, string> => {
  const problems: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text)) {
    const problem = textProblem(name) ?? textProblem(value)
    if (problem !== undefined && !(name in problems)) problems[name] = problem
  }
  return problems
}

const invalidText = (fields: Record<string, string>): Prepared => ({
  _tag: "Refused",
  closeConnection: false,
  error: new ValidationFailed({ message: "The request body has invalid values.", details: { fields } })
})

/**
 * The shared HTTP conventions, applied once around a whole HttpApi app:
 * request ids, dated versions, body limits and media types, and one error
 * envelope for every failure including the framework's own (or, on a route
 * that declares its own ErrorFormat, that format for every failure).
 */
export const conventions = (options: ConventionsOptions) => {
  const table = options.table ?? makeRouteTable(options.api, options.extraRoutes)
  const versioning = options.versioning
  const versionHeader = versioning?.header.toLowerCase()
  const around = options.around
  const unavailable = options.unavailable ?? (() => false)
  const envelope = options.envelope ?? "compact"
  const admit = options.admit
  const logRequest = options.logRequest
  const errorPage: Option.Option<ErrorFormat> = options.errorPage === undefined
    ? Option.none()
    : Option.some({ page: options.errorPage })
  // Written without generators: every request of every service pays for this function.
  return (app: HttpApp.Default<unknown>): HttpApp.Default => {
    const handle = (original: HttpServerRequest.HttpServerRequest, admitted: Admitted | undefined) => {
      const started = performance.now()
      const requestId = requestIdFrom(original.headers["x-request-id"])
      const path = pathOf(original.url)
      const route = table.match(original.method, path)
      const headers: Record<string, string> = { ...NOSNIFF, ...route?.headers, ...admitted?.headers, "x-request-id": requestId }
      const pageFormat = Option.isSome(errorPage) && asksForHtml(original.headers["accept"]) &&
          (route?.page ?? table.pageAt(path))
        ? errorPage
        : Option.none<ErrorFormat>()
      const formatFor = (own: Option.Option<ErrorFormat>) => Option.isSome(pageFormat) ? pageFormat : own

      // Set once the time budget has answered: the work's own answer, when it comes, is neither sent nor logged.
      let answeredByBudget = false
      const logLine = (status: number) => {
        const line = {
          method: original.method,
          route: route?.path ?? "unmatched",
          status,
          duration_ms: durationSince(started),
          request_id: requestId
        }
        return logRequest === undefined ? Effect.logInfo({ event: "request", ...line }) : Effect.sync(() => logRequest(line))
      }
      const finish = (response: HttpServerResponse.HttpServerResponse) => {
        const final = HttpServerResponse.setHeaders(response, headers)
        return answeredByBudget ? Effect.succeed(final) : Effect.as(logLine(final.status), final)
      }

      /**
       * Past its budget the request is answered at once, on its connection, by a timer; the work goes on
       * in its fiber (what commits, commits with its stored idempotent answer, which a retry with the same
       * key then gets). A timer, not a racing fiber: every request pays for the budget, few reach it.
       */
      const withinBudget = <R>(work: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>, budget: Route) =>
        Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, R>((fiber) => {
          const node = NodeHttpServerRequest.toServerResponse(original)
          const timer = setTimeout(() => {
            if (node.headersSent) return
            answeredByBudget = true
            const answer = HttpServerResponse.setHeaders(
              respondWithError(
                new RequestTimeout({ message: `The request took longer than its ${budget.timeBudgetMillis / 1000} seconds; retry it.` }),
                formatFor(budget.errorFormat),
                envelope
              ),
              headers
            )
            const runtime = Runtime.make({
              context: fiber.currentContext,
              fiberRefs: fiber.getFiberRefs(),
              runtimeFlags: Runtime.defaultRuntimeFlags
            })
            Runtime.runFork(runtime)(Effect.zipRight(logLine(answer.status), writeResponse(node, original.method, answer)))
          }, budget.timeBudgetMillis)
          return Effect.ensuring(work, Effect.sync(() => clearTimeout(timer)))
        })

      const run = (request: HttpServerRequest.HttpServerRequest, json: unknown) => {
        const bodyDecodes = () =>
          Option.match(route?.payloadSchema ?? Option.none(), {
            onNone: () => true,
            onSome: (schema) => Either.isRight(Schema.decodeUnknownEither(schema)(json))
          })
        const failed = { request, path, route, table, requestId, bodyDecodes, unavailable, pageFormat, envelope }
        const handled = Effect.catchAllCause(app, (cause) => translateFailure(cause, failed, "app"))
        // A streamed body cannot be fingerprinted or replayed without buffering it: no `around` (idempotency).
        const wrapped = around === undefined || route?.streamedBody === true ? handled : around(request, handled)
        const translated = wrapped === handled
          ? handled
          : Effect.catchAllCause(wrapped, (cause) => translateFailure(cause, failed, "conventions"))
        const answered = route === undefined ? translated : withinBudget(translated, route)
        return Effect.flatMap(
          request === original ? answered : Effect.provideService(answered, HttpServerRequest.HttpServerRequest, request),
          finish
        )
      }

      if (versioning !== undefined && versionHeader !== undefined && isVersioned(versioning, path)) {
        const version = selectVersion(versioning, original.headers[versionHeader])
        headers[versioning.header] = typeof version === "string" ? version : versioning.current
        headers["vary"] = versioning.header
        if (typeof version !== "string") {
          return finish(respondWithError(version, formatFor(table.errorFormatAt(path)), envelope))
        }
      }
      if (admitted?.refusal !== undefined) {
        return finish(respondWithError(admitted.refusal, formatFor(route?.errorFormat ?? table.errorFormatAt(path)), envelope))
      }
      if (route === undefined) return run(original, undefined)
      const refusal = parameterRefusal(route, path, original.url)
      if (refusal !== undefined) return finish(respondWithError(refusal, formatFor(route.errorFormat), envelope))
      if (route.bodyTypes.size === 0) return run(original, undefined)
      const prepare = route.streamedBody ? Effect.succeed(checkStreamedBody(original, route)) : prepareBody(original, route)
      return Effect.flatMap(prepare, (prepared) => {
        if (prepared._tag === "Ready") return run(prepared.request, prepared.json)
        if (prepared.closeConnection) headers["connection"] = "close"
        return finish(respondWithError(prepared.error, formatFor(route.errorFormat), envelope))
      })
    }
    return admit === undefined
      ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (original) => handle(original, undefined))
      : Effect.flatMap(
        HttpServerRequest.HttpServerRequest,
        (original) =>
          Effect.flatMap(admit(original, table.match(original.method, pathOf(original.url))), (admitted) =>
            handle(original, admitted))
      )
  }
}
