import { HttpApp, type HttpApi, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Cause, type Clock, Context, Effect, Exit, FiberRef, Option, Runtime, Schema, Either } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { ApiErrorInstance } from "./ApiError.ts"
import { type ApiVersioning, isVersioned, selectVersion } from "./ApiVersion.ts"
import { checkBody, checkStreamedBody } from "./BodyChecks.ts"
import type { ErrorFormat } from "./ErrorFormat.ts"
import type { EnvelopeStyle } from "./ErrorResponse.ts"
import { type FailureContext, respondWithError, translateFailure } from "./ErrorTranslation.ts"
import { type AnswerFreshness, answerKeptUntil, KeptAnswers, keptAnswerKey, type KeptLookup } from "./KeptAnswers.ts"
import { RequestTimeout } from "./errors.ts"
import { sendResponse } from "./NodeResponse.ts"
import { parameterRefusal } from "./ParameterCheck.ts"
import { type BodyRead, readBody } from "./RequestBody.ts"
import { requestIdFrom } from "./RequestId.ts"
import { durationSince, type RequestLogLine, writeRequestLine } from "./RequestLog.ts"
import { pathOf } from "./RequestUrl.ts"
import { NOSNIFF } from "./ResponseHeaders.ts"
import { type ExtraRoute, makeRouteTable, type Route, type RouteTable } from "./RouteTable.ts"
import { NodeServerRequest } from "./ServerRequest.ts"

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
   * Writes each request's log line (nothing when INFO lines are off, say). Default: writeRequestLine,
   * an INFO line in the JSON logger's shape and sink.
   */
  readonly logRequest?: (line: RequestLogLine) => void
  /**
   * The freshness of a channel's state (the committed changes' watch), for the routes that keep
   * answers (KeepsAnswers), or undefined where it cannot be followed: their answers are then never
   * kept. Default: none is followed.
   */
  readonly answerFreshness?: (channel: string) => AnswerFreshness | undefined
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

/** What answers a request the conventions let through: the effect its fiber runs, and what that fiber starts with. */
export interface Answer<R = never> {
  readonly effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R | HttpServerRequest.HttpServerRequest>
  /**
   * The fiber's services, in a map made for this request (the conventions add the request to it), or
   * undefined for the runtime's own: an answer that needs more than the runtime has (a route's
   * parameters, its group's services) gives them here, made in one copy.
   */
  readonly services: Map<string, unknown> | undefined
}

export type Answering<R = never> = (request: NodeServerRequest, route: Route | undefined, path: string) => Answer<R>

/** Any HttpApp (Effect's router, for one) as the answer to every request: it reads the request from its context. */
export const answerWith = <R>(app: HttpApp.Default<unknown, R>): Answering<R> => {
  const answer: Answer<R> = { effect: app, services: undefined }
  return () => answer
}

export type RequestListener = (source: IncomingMessage, node: ServerResponse) => void

/** A browser's navigation asks for text/html; fetch and API clients ask for JSON or anything. */
const asksForHtml = (accept: string | undefined): boolean => accept !== undefined && accept.includes("text/html")

/** What every request of one server shares, worked out once. */
interface Settings {
  readonly table: RouteTable
  readonly versioning: ApiVersioning | undefined
  readonly versionHeader: string | undefined
  readonly around: AroundHandled | undefined
  readonly unavailable: (defect: unknown) => boolean
  readonly envelope: EnvelopeStyle
  readonly admit: Admission | undefined
  readonly logRequest: (line: RequestLogLine) => void
  readonly errorPage: Option.Option<ErrorFormat>
  readonly answering: Answering
  readonly runtime: Runtime.Runtime<never>
  /** Each route's kept answers, for the routes that keep them where their channel is followed. */
  readonly keptAnswers: ReadonlyMap<Route, KeptAnswers>
}

/** A store of kept answers for every route that keeps them, on the runtime's clock. */
const keptAnswersOf = (
  table: RouteTable,
  freshnessOf: ((channel: string) => AnswerFreshness | undefined) | undefined,
  runtime: Runtime.Runtime<never>
): ReadonlyMap<Route, KeptAnswers> => {
  const stores = new Map<Route, KeptAnswers>()
  if (freshnessOf === undefined) return stores
  const clock: Clock.Clock = Runtime.runSync(runtime)(Effect.clock)
  const nowMillis = () => clock.unsafeCurrentTimeMillis()
  for (const route of table.routes) {
    if (Option.isNone(route.keepsAnswers)) continue
    const freshness = freshnessOf(route.keepsAnswers.value.channel)
    if (freshness !== undefined) stores.set(route, new KeptAnswers(freshness, route.keepsAnswers.value.capacity, nowMillis))
  }
  return stores
}

/**
 * The shared HTTP conventions as a Node request listener: request ids, dated versions, parameter
 * checks, body limits and media types, a time budget, one error envelope for every failure including
 * the framework's own (or, on a route that declares its own ErrorFormat, that format for every
 * failure), and the request log. They run as plain code around the answer; only the answer (and an
 * admission, when there is one) runs as an Effect, in one fiber per request on the runtime given.
 */
export const conventions = (options: ConventionsOptions) => {
  const table = options.table ?? makeRouteTable(options.api, options.extraRoutes)
  // The answer's fiber runs on `runtime`, whose services are what the answer needs besides the request.
  return <R>(answering: Answering<R>, runtime: Runtime.Runtime<R>): RequestListener => {
    const settings: Settings = {
      table,
      versioning: options.versioning,
      versionHeader: options.versioning?.header.toLowerCase(),
      around: options.around,
      unavailable: options.unavailable ?? (() => false),
      envelope: options.envelope ?? "compact",
      admit: options.admit,
      logRequest: options.logRequest ?? writeRequestLine,
      errorPage: options.errorPage === undefined ? Option.none() : Option.some({ page: options.errorPage }),
      answering: answering as Answering,
      runtime: runtime as Runtime.Runtime<never>,
      keptAnswers: keptAnswersOf(table, options.answerFreshness, runtime as Runtime.Runtime<never>)
    }
    return (source, node) => new Exchange(settings, source, node).start()
  }
}

/** Where an answer is kept if its handler says it may be: the route's store, and the lookup that missed. */
interface Keeping {
  readonly store: KeptAnswers
  readonly miss: Extract<KeptLookup, { _tag: "Missing" }>
}

/** Past its budget a request is answered by this timer, on its connection; its work goes on in its fiber. */
const budgetSpent = (exchange: Exchange): void => exchange.answerTimeout()

/**
 * One request and its answer. A class, not closures: every request of every service pays for what is
 * made here, and methods are made once.
 */
class Exchange implements FailureContext {
  readonly started = performance.now()
  readonly request: NodeServerRequest
  readonly path: string
  readonly route: Route | undefined
  readonly requestId: string
  readonly headers: Record<string, string>
  readonly pageFormat: Option.Option<ErrorFormat>
  /** Set once the time budget has answered: the work's own answer, when it comes, is neither sent nor logged. */
  private answeredByBudget = false
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly settings: Settings, source: IncomingMessage, readonly node: ServerResponse) {
    this.request = new NodeServerRequest(source, node)
    this.requestId = requestIdFrom(this.request.headers["x-request-id"])
    this.path = pathOf(this.request.url)
    this.route = settings.table.match(this.request.method, this.path)
    this.headers = this.route?.headers === undefined
      ? { ...NOSNIFF, "x-request-id": this.requestId }
      : { ...NOSNIFF, ...this.route.headers, "x-request-id": this.requestId }
    this.pageFormat = Option.isSome(settings.errorPage) && asksForHtml(this.request.headers["accept"]) &&
        (this.route?.page ?? settings.table.pageAt(this.path))
      ? settings.errorPage
      : Option.none()
  }

  get table(): RouteTable {
    return this.settings.table
  }

  get unavailable(): (defect: unknown) => boolean {
    return this.settings.unavailable
  }

  get envelope(): EnvelopeStyle {
    return this.settings.envelope
  }

  /** Whether the body the conventions read decodes with the route's payload schema (for classifying a decode error). */
  readonly bodyDecodes = (): boolean =>
    Option.match(this.route?.payloadSchema ?? Option.none(), {
      onNone: () => true,
      onSome: (schema) => Either.isRight(Schema.decodeUnknownEither(schema)(this.request.bufferedJson))
    })

  start(): void {
    const admit = this.settings.admit
    if (admit === undefined) return this.proceed(undefined)
    const fiber = Runtime.runFork(this.settings.runtime)(admit(this.request, this.route))
    fiber.addObserver((exit) => Exit.isSuccess(exit) ? this.proceed(exit.value) : this.failed(exit.cause))
  }

  private proceed(admitted: Admitted | undefined): void {
    const { route, path, settings } = this
    const { table, versioning, versionHeader } = settings
    if (admitted !== undefined) Object.assign(this.headers, admitted.headers)
    if (versioning !== undefined && versionHeader !== undefined && isVersioned(versioning, path)) {
      const version = selectVersion(versioning, this.request.headers[versionHeader])
      this.headers[versioning.header] = typeof version === "string" ? version : versioning.current
      this.headers["vary"] = versioning.header
      if (typeof version !== "string") return this.refuse(version, table.errorFormatAt(path))
    }
    if (admitted?.refusal !== undefined) return this.refuse(admitted.refusal, route?.errorFormat ?? table.errorFormatAt(path))
    if (route === undefined) return this.answer()
    const refusal = parameterRefusal(route, path, this.request.url)
    if (refusal !== undefined) return this.refuse(refusal, route.errorFormat)
    if (route.bodyTypes.size === 0) return this.answer()
    if (route.streamedBody) {
      const streamed = checkStreamedBody(this.request, route)
      return streamed === undefined ? this.answer() : this.refuse(streamed.error, route.errorFormat, streamed.closeConnection)
    }
    readBody(this.request.source, route.maxBodyBytes, (read) => {
      const kept = this.settings.keptAnswers.get(route)
      if (kept === undefined || read._tag !== "Read" || !this.aroundLeavesAlone()) return this.bodyRead(route, read)
      // A kept answer's request passed the body checks, which read nothing but the bytes and the Content-Type in its key.
      kept.lookup(keptAnswerKey(this.request.source.headers, this.settings.versionHeader, read.bytes), (found) => {
        if (found?._tag === "Kept") return void this.send(found.response)
        this.bodyRead(route, read, found === undefined ? undefined : { store: kept, miss: found })
      })
    })
  }

  private bodyRead(route: Route, read: BodyRead, keeping?: Keeping): void {
    const checked = checkBody(this.request, route, read)
    if (checked._tag === "Refused") return this.refuse(checked.error, route.errorFormat, checked.closeConnection)
    this.request.bufferBody(checked.bytes, checked.json)
    this.answer(keeping)
  }

  /** Whether `around` has nothing to do for this request (an idempotent retry is its to answer, not a kept answer's). */
  private aroundLeavesAlone(): boolean {
    const around = this.settings.around
    return around === undefined || around(this.request, Effect.never) === Effect.never
  }

  /** The failure's format: the error page for a browser on a page route, else the route's own. */
  private formatFor(own: Option.Option<ErrorFormat>): Option.Option<ErrorFormat> {
    return Option.isSome(this.pageFormat) ? this.pageFormat : own
  }

  /** Answers at once, outside any fiber (an error page whose body is a stream still gets written, in one). */
  private refuse(error: ApiErrorInstance, own: Option.Option<ErrorFormat>, closeConnection = false): void {
    if (closeConnection) this.headers["connection"] = "close"
    const rest = this.send(respondWithError(error, this.formatFor(own), this.settings.envelope))
    if (rest !== undefined) Runtime.runFork(this.settings.runtime)(rest)
  }

  /** Writes the response with the conventions' headers and logs its line; what remains to write (a stream) runs after. */
  private send(response: HttpServerResponse.HttpServerResponse): Effect.Effect<void> | undefined {
    const { request, route } = this
    this.settings.logRequest({
      method: request.method,
      route: route?.path ?? "unmatched",
      status: response.status,
      duration_ms: durationSince(this.started),
      request_id: this.requestId
    })
    return sendResponse(this.node, request.method, response, this.headers)
  }

  answerTimeout(): void {
    const route = this.route!
    if (this.node.headersSent) return
    this.answeredByBudget = true
    this.refuse(
      new RequestTimeout({ message: `The request took longer than its ${route.timeBudgetMillis / 1000} seconds; retry it.` }),
      route.errorFormat
    )
  }

  /**
   * The answer's fiber: its failures become responses; what handlers registered for the response runs on it.
   * `keeping`: where the answer is kept if its handler says it may be (keepAnswerUntil).
   */
  private answer(keeping?: Keeping): void {
    const { request, route, settings } = this
    const { context, fiberRefs, runtimeFlags } = settings.runtime
    const answer = settings.answering(request, route, this.path)
    const services = answer.services ?? new Map(context.unsafeMap)
    services.set(HttpServerRequest.HttpServerRequest.key, request)
    const handled = Effect.catchAllCause(answer.effect, (cause) => translateFailure(cause, this, "app"))
    // A streamed body cannot be fingerprinted or replayed without buffering it: no `around` (idempotency).
    const wrapped = settings.around === undefined || route?.streamedBody === true ? handled : settings.around(request, handled)
    const translated = wrapped === handled
      ? handled
      : Effect.catchAllCause(wrapped, (cause) => translateFailure(cause, this, "conventions"))
    const finish = keeping === undefined
      ? (response: HttpServerResponse.HttpServerResponse) => this.finish(response)
      : (response: HttpServerResponse.HttpServerResponse) =>
        Effect.flatMap(answerKeptUntil, (until) => {
          if (until !== undefined && !this.answeredByBudget) keeping.store.keep(keeping.miss, response, until)
          return this.finish(response)
        })
    const answered = Effect.flatMap(translated, (response) =>
      Effect.flatMap(FiberRef.get(HttpApp.currentPreResponseHandlers), (handler) =>
        handler._tag === "None"
          ? finish(response)
          : Effect.flatMap(handler.value(request, response), finish)))
    // A timer, not a racing fiber: every request pays for the budget, few reach it.
    if (route !== undefined) this.timer = setTimeout(budgetSpent, route.timeBudgetMillis, this)
    const fiber = Runtime.runFork(Runtime.make({ context: Context.unsafeMake(services), fiberRefs, runtimeFlags }))(
      Effect.uninterruptible(answered)
    )
    fiber.addObserver((exit) => {
      clearTimeout(this.timer)
      if (Exit.isFailure(exit)) this.failed(exit.cause)
    })
    this.node.on("close", () => {
      if (!this.node.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })
  }

  // The timer is cleared when the fiber ends; until then it finds the answer's headers sent and does nothing.
  private finish(response: HttpServerResponse.HttpServerResponse): Effect.Effect<void> {
    if (this.answeredByBudget) return Effect.void
    return this.send(response) ?? Effect.void
  }

  /** A failure nothing translated (a defect in the conventions' own effects), or a client that went away. */
  private failed(cause: Cause.Cause<unknown>): void {
    const { node } = this
    // A client that went away interrupted its request: nothing failed.
    if (!Cause.isInterruptedOnly(cause)) {
      Runtime.runFork(this.settings.runtime)(Effect.logError("a request failed outside the conventions", cause))
    }
    if (!node.headersSent) node.writeHead(500)
    if (!node.writableEnded) node.end()
  }
}
