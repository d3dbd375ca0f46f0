import { HttpApi, type HttpApiSchema } from "@effect/platform"
import { Context, Option, type Schema, SchemaAST } from "effect"
import { type ErrorFormat, errorFormatOf } from "./ErrorFormat.ts"
import { KeepsAnswers } from "./KeptAnswers.ts"
import { percentDecoded } from "./RequestUrl.ts"

/** Per-endpoint request body limit, in bytes (default 64 KB). */
export class MaxBodyBytes extends Context.Tag("@platform/http/MaxBodyBytes")<MaxBodyBytes, number>() {}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

/**
 * Marks an endpoint (or a whole group) as a page people open in a browser: a request asking for
 * text/html gets every failure of the conventions as the service's error page (ConventionsOptions.errorPage).
 */
export class HtmlPage extends Context.Tag("@platform/http/HtmlPage")<HtmlPage, true>() {}

/**
 * The route's handler reads its body as a stream (a CSV import): the conventions check the declared
 * size and the media type but read nothing, and the handler enforces MaxBodyBytes as it reads.
 */
export class StreamedBody extends Context.Tag("@platform/http/StreamedBody")<StreamedBody, true>() {}

/** Per-endpoint time budget, in milliseconds (default 30 seconds): past it the request answers 503 request_timeout. */
export class TimeBudgetMillis extends Context.Tag("@platform/http/TimeBudgetMillis")<TimeBudgetMillis, number>() {}

export const DEFAULT_TIME_BUDGET_MILLIS = 30_000

export interface Route {
  readonly method: string
  readonly path: string
  readonly maxBodyBytes: number
  /** The handler reads the body itself, as a stream (see StreamedBody). */
  readonly streamedBody: boolean
  readonly timeBudgetMillis: number
  /** Accepted media types of the body, with the kind each decodes as; empty when the route takes no body. */
  readonly bodyTypes: ReadonlyMap<string, HttpApiSchema.Encoding["kind"]>
  readonly pathSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly urlParamsSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly payloadSchema: Option.Option<Schema.Schema.AnyNoContext>
  /** The route's own error format (the OAuth endpoints' RFC 6749 bodies), declared by its payload schema. */
  readonly errorFormat: Option.Option<ErrorFormat>
  /** A page for browsers (HtmlPage). */
  readonly page: boolean
  /** Whether a JSON body must be an object (the payload is a struct or record, or a union of them). */
  readonly jsonObjectBody: boolean
  /** Headers every response of this route carries besides the conventions' own. */
  readonly headers?: Readonly<Record<string, string>>
  /** The names of the path's parameters, in order (`*` for a trailing wildcard). */
  readonly paramNames: ReadonlyArray<string>
  /** Whether and how its answers may be kept and replayed (KeepsAnswers). */
  readonly keepsAnswers: Option.Option<Context.Tag.Service<KeepsAnswers>>
}

/** Whether a value of this schema is always a JSON object on the wire. */
const takesObject = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
      return true
    case "Refinement":
      return takesObject(ast.from)
    case "Transformation":
      return takesObject(ast.from)
    case "Union":
      return ast.types.every(takesObject)
    default:
      return false
  }
}

const jsonObjectBodyOf = (payload: Option.Option<Schema.Schema.AnyNoContext>): boolean =>
  Option.match(payload, { onNone: () => false, onSome: (schema) => takesObject(SchemaAST.encodedAST(schema.ast)) })

interface PatternEntry {
  readonly regex: RegExp
  readonly routes: Map<string, Route>
}

/**
 * The API's routes, built once from the HttpApi definition. The router
 * answers the request; this table answers the questions the conventions
 * need before and after it: which body a route takes and how large, which
 * methods a path allows (405), and which part of a request failed to decode.
 */
export interface RouteTable {
  readonly match: (method: string, path: string) => Route | undefined
  readonly allowedMethods: (path: string) => ReadonlyArray<string>
  /** The error format of a route on this path, whatever its method: a wrong method answers in it too. */
  readonly errorFormatAt: (path: string) => Option.Option<ErrorFormat>
  /** Whether a route on this path, whatever its method, is a page (a wrong method answers as a page too). */
  readonly pageAt: (path: string) => boolean
  /** The path's parameters for a route it matched, percent-decoded, by the route's names. */
  readonly params: (route: Route, path: string) => Readonly<Record<string, string>>
  /** Every route, the API's and the extra ones. */
  readonly routes: ReadonlyArray<Route>
}

const PARAMETER = "([^/]+)"

const patternOf = (path: string): RegExp | undefined => {
  if (!path.includes(":") && !path.includes("*")) return undefined
  const source = path
    .split("/")
    .map((segment) =>
      segment.startsWith(":") ? PARAMETER : segment === "*" ? "(.*)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    )
    .join("/")
  return new RegExp(`^${source}$`)
}

const paramNamesOf = (path: string): ReadonlyArray<string> =>
  path.split("/").filter((segment) => segment.startsWith(":") || segment === "*").map((segment) =>
    segment === "*" ? "*" : segment.slice(1)
  )

/** How many segments of a pattern are literal text rather than a parameter. */
const literalSegments = (regex: RegExp): number => regex.source.split("/").filter((segment) => segment !== PARAMETER).length


/** Routes served beside the HttpApi (the OpenAPI document, the docs page), known for 405 answers. */
export interface ExtraRoute {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
}

export const makeRouteTable = (api: HttpApi.HttpApi.Any, extra: ReadonlyArray<ExtraRoute> = []): RouteTable => {
  const exact = new Map<string, Map<string, Route>>()
  const patterns = new Map<string, PatternEntry>()
  const patternOfRoute = new Map<Route, RegExp>()
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations, payloads }) => {
      const bodyTypes = new Map<string, HttpApiSchema.Encoding["kind"]>()
      for (const [contentType, { encoding }] of payloads) bodyTypes.set(contentType, encoding.kind)
      const payloadSchema = endpoint.payloadSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>
      const route: Route = {
        method: endpoint.method,
        path: endpoint.path,
        maxBodyBytes: Context.getOption(mergedAnnotations, MaxBodyBytes).pipe(
          Option.getOrElse(() => DEFAULT_MAX_BODY_BYTES)
        ),
        streamedBody: Option.isSome(Context.getOption(mergedAnnotations, StreamedBody)),
        timeBudgetMillis: Context.getOption(mergedAnnotations, TimeBudgetMillis).pipe(
          Option.getOrElse(() => DEFAULT_TIME_BUDGET_MILLIS)
        ),
        bodyTypes: endpoint.method === "GET" ? new Map() : bodyTypes,
        pathSchema: endpoint.pathSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
        urlParamsSchema: endpoint.urlParamsSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
        payloadSchema,
        errorFormat: errorFormatOf(payloadSchema),
        page: Context.getOption(mergedAnnotations, HtmlPage).pipe(Option.isSome),
        jsonObjectBody: jsonObjectBodyOf(payloadSchema),
        paramNames: paramNamesOf(endpoint.path),
        keepsAnswers: Context.getOption(mergedAnnotations, KeepsAnswers)
      }
      const regex = patternOf(endpoint.path)
      if (regex === undefined) {
        const byMethod = exact.get(endpoint.path) ?? new Map<string, Route>()
        byMethod.set(endpoint.method, route)
        exact.set(endpoint.path, byMethod)
      } else {
        patternOfRoute.set(route, regex)
        // Paths that differ only in their parameters' names (`/x/:provider`, `/x/:id`) are one path.
        const entry = patterns.get(regex.source) ?? { regex, routes: new Map<string, Route>() }
        entry.routes.set(endpoint.method, route)
        patterns.set(regex.source, entry)
      }
    }
  })
  for (const { headers, method, path } of extra) {
    const byMethod = exact.get(path) ?? new Map<string, Route>()
    byMethod.set(method, {
      ...(headers === undefined ? {} : { headers }),
      method,
      path,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      streamedBody: false,
      timeBudgetMillis: DEFAULT_TIME_BUDGET_MILLIS,
      bodyTypes: new Map(),
      pathSchema: Option.none(),
      urlParamsSchema: Option.none(),
      payloadSchema: Option.none(),
      errorFormat: Option.none(),
      page: false,
      jsonObjectBody: false,
      paramNames: [],
      keepsAnswers: Option.none()
    })
    exact.set(path, byMethod)
  }
  // A literal segment wins over a parameter (`/apps/:id/proofs/app-verification` before `/apps/:id/proofs/:proof_id`).
  const byLiteralSegments = [...patterns.values()].sort((a, b) => literalSegments(b.regex) - literalSegments(a.regex))
  /** Every path pattern this path matches, the most literal first (an exact path before all). */
  const routesFor = (path: string): ReadonlyArray<Map<string, Route>> => {
    const found = exact.get(path)
    const matching = byLiteralSegments.filter((entry) => entry.regex.test(path)).map((entry) => entry.routes)
    return found === undefined ? matching : [found, ...matching]
  }
  const routes = [...exact.values(), ...[...patterns.values()].map((entry) => entry.routes)].flatMap((byMethod) => [...byMethod.values()])
  return {
    routes,
    // On every request: stops at the first pattern that has the method.
    match: (method, path) => {
      const inRoutes = (routes: Map<string, Route>) => routes.get(method) ?? (method === "HEAD" ? routes.get("GET") : undefined)
      const found = exact.get(path)
      const exactRoute = found === undefined ? undefined : inRoutes(found)
      if (exactRoute !== undefined) return exactRoute
      for (const entry of byLiteralSegments) {
        const route = entry.regex.test(path) ? inRoutes(entry.routes) : undefined
        if (route !== undefined) return route
      }
      return undefined
    },
    allowedMethods: (path) => {
      const methods = [...new Set(routesFor(path).flatMap((routes) => [...routes.keys()]))]
      if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD")
      return methods
    },
    errorFormatAt: (path) => {
      for (const route of routesFor(path).flatMap((routes) => [...routes.values()])) {
        if (Option.isSome(route.errorFormat)) return route.errorFormat
      }
      return Option.none()
    },
    pageAt: (path) => routesFor(path).some((routes) => [...routes.values()].some((route) => route.page)),
    params: (route, path) => {
      const params: Record<string, string> = {}
      if (route.paramNames.length === 0) return params
      const values = patternOfRoute.get(route)?.exec(path)
      route.paramNames.forEach((name, index) => {
        const value = values?.[index + 1]
        if (value !== undefined) params[name] = percentDecoded(value) ?? value
      })
      return params
    }
  }
}
