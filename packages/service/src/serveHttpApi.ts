import { HttpApi, HttpApiBuilder, type HttpApiGroup, HttpApiScalar, type HttpServerResponse } from "@effect/platform"
import {
  type Admission,
  type AnswerFreshness,
  type ApiErrorInstance,
  type ApiVersioning,
  type AroundHandled,
  conventions,
  type EnvelopeStyle,
  makeRouteTable,
  type PublicDocument,
  type RequestLogLine,
  writeRequestLine
} from "@platform/http"
import { CommittedChanges, isDatabaseUnavailable } from "@platform/database"
import { Effect, FiberRef, Layer, LogLevel, Option } from "effect"
import { type HomeLink, homePage } from "./homePage.ts"
import { ListeningServer, nodeServer } from "./nodeServer.ts"
import { CompiledEndpoints } from "./compiledEndpoints.ts"
import { dispatchRoutes } from "./routeDispatch.ts"
import type { ServiceSettings } from "./ServiceConfig.ts"

export const OPENAPI_PATH = "/openapi.json"
export const DOCS_PATH = "/docs"
export const HOME_PATH = "/"

export interface HttpApiService<Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, ApiE, ApiR, E, R> {
  /** The service's name, the title of its home page. */
  readonly name: string
  readonly api: HttpApi.HttpApi<Id, Groups, ApiE, ApiR>
  /** Every group's handlers, with what they need provided or left to the caller. */
  readonly handlers: Layer.Layer<HttpApiGroup.HttpApiGroup.ToService<Id, Groups>, E, R>
  readonly versioning: ApiVersioning
  readonly settings: Pick<ServiceSettings, "port" | "host" | "publicUrl" | "drainSeconds">
  /** Answered from memory before the Effect runtime (see servePublicDocuments); they must also be API endpoints. */
  readonly publicDocuments?: ReadonlyArray<PublicDocument>
  /** Wraps each request once its body is checked, e.g. `idempotentRequests` (see ConventionsOptions). */
  readonly around?: AroundHandled
  /** The home page's links besides the docs page and the OpenAPI document. */
  readonly links?: ReadonlyArray<HomeLink>
  /** The API itself answers `GET /` (a site's own front page): no kit home page then. */
  readonly ownHomePage?: boolean
  /** The error page a browser gets on the API's page routes (see ConventionsOptions.errorPage). */
  readonly errorPage?: (error: ApiErrorInstance) => HttpServerResponse.HttpServerResponse
  /** How error envelopes write empty members (see ConventionsOptions.envelope). */
  readonly envelope?: EnvelopeStyle
  /** Runs first on every request; its headers go on every response (see ConventionsOptions.admit). */
  readonly admit?: Admission
}

/**
 * A service's HttpApi served the platform's way: the shared conventions
 * around every route (request ids, dated versions, body limits, one error
 * envelope, 405 with Allow), `/openapi.json`, the `/docs` page, a home page
 * at `/`, the request log, and a Node server that drains on shutdown. The
 * log names the docs page once the server listens.
 */
export const serveHttpApi = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, ApiE, ApiR, E, R>(
  service: HttpApiService<Id, Groups, ApiE, ApiR, E, R>
) => {
  const table = makeRouteTable(service.api, [
    { method: "GET", path: OPENAPI_PATH },
    // The docs page loads its script and styles from elsewhere; no other site may frame it.
    { method: "GET", path: DOCS_PATH, headers: { "content-security-policy": "frame-ancestors 'none'" } },
    ...(service.ownHomePage === true ? [] : [{ method: "GET", path: HOME_PATH }])
  ])
  const withConventions = (
    logRequest: (line: RequestLogLine) => void,
    answerFreshness: (channel: string) => AnswerFreshness | undefined
  ) => conventions({
    api: service.api,
    logRequest,
    answerFreshness,
    table,
    versioning: service.versioning,
    unavailable: isDatabaseUnavailable,
    ...(service.errorPage === undefined ? {} : { errorPage: service.errorPage }),
    ...(service.around === undefined ? {} : { around: service.around }),
    ...(service.envelope === undefined ? {} : { envelope: service.envelope }),
    ...(service.admit === undefined ? {} : { admit: service.admit })
  })
  const links: ReadonlyArray<HomeLink> = [
    { href: DOCS_PATH, label: "API reference" },
    { href: OPENAPI_PATH, label: "OpenAPI document" },
    ...(service.links ?? [])
  ]
  // Every route (the API's handlers, the OpenAPI document, the docs and home pages) registers on
  // HttpApiBuilder's router; the service answers them through its own table and listener.
  const ServeLive = Layer.scopedDiscard(Effect.gen(function*() {
    const { api } = yield* HttpApi.Api
    if (api.middlewares.size > 0) return yield* Effect.dieMessage("serveHttpApi: API-level middleware is not supported")
    const router = yield* HttpApiBuilder.Router.router
    // The request log line is an INFO line: written unless the runtime's minimum log level is above it.
    const logsInfo = LogLevel.lessThanEqual(yield* FiberRef.get(FiberRef.currentMinimumLogLevel), LogLevel.Info)
    const runtime = yield* Effect.runtime<never>()
    // Kept answers (KeepsAnswers) follow committed changes; on the embedded database nothing is kept.
    const changes = yield* Effect.serviceOption(CommittedChanges)
    const answerFreshness = (channel: string) =>
      Option.getOrUndefined(Option.flatMap(changes, (changes) => changes.watch(channel)))
    const listener = withConventions(logsInfo ? writeRequestLine : () => {}, answerFreshness)(
      dispatchRoutes(router, table, yield* CompiledEndpoints, runtime.context),
      runtime
    )
    const server = yield* ListeningServer
    server.on("request", listener)
    yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", listener)))
  })).pipe(
    Layer.provide(service.ownHomePage === true ? Layer.empty : homePage(HOME_PATH, service.name, links)),
    Layer.provide(HttpApiScalar.layer({ path: DOCS_PATH })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: OPENAPI_PATH })),
    Layer.provide(HttpApiBuilder.api(service.api).pipe(Layer.provide(service.handlers))),
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]),
    // Fresh for each service built: its groups fill it, its dispatch reads it.
    Layer.provideMerge(Layer.fresh(CompiledEndpoints.layer))
  )
  const docsAt = Layer.effectDiscard(Effect.logInfo(`docs at ${service.settings.publicUrl}${DOCS_PATH}`))
  return docsAt.pipe(
    Layer.provideMerge(ServeLive),
    Layer.provide(nodeServer({
      port: service.settings.port,
      host: service.settings.host,
      drainSeconds: service.settings.drainSeconds,
      versioning: service.versioning,
      publicDocuments: service.publicDocuments ?? []
    }))
  )
}
