import { HttpApi, type HttpApiSchema } from "@effect/platform"
import { Context, Option, type Schema } from "effect"
import { type ErrorFormat, errorFormatOf } from "./ErrorFormat.ts"

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

export interface Route {
  readonly method: string
  readonly path: string
  readonly maxBodyBytes: number
  /** The handler reads the body itself, as a stream (see StreamedBody). */
  readonly streamedBody: boolean
  /** Accepted media types of the body, with the kind each decodes as; empty when the route takes no body. */
  readonly bodyTypes: ReadonlyMap<string, HttpApiSchema.Encoding["kind"]>
  readonly pathSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly urlParamsSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly payloadSchema: Option.Option<Schema.Schema.AnyNoContext>
  /** The route's own error format (the OAuth endpoints' RFC 6749 bodies), declared by its payload schema. */
  readonly errorFormat: Option.Option<ErrorFormat>
  /** A page for browsers (HtmlPage). */
  readonly page: boolean
  /** Headers every response of this route carries besides the conventions' own. */
  readonly headers?: Readonly<Record<string, string>>
}

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
}

const patternOf = (path: string): RegExp | undefined => {
  if (!path.includes(":") && !path.includes("*")) return undefined
  const source = path
    .split("/")
    .map((segment) =>
      segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    )
    .join("/")
  return new RegExp(`^${source}$`)
}

/** Routes served beside the HttpApi (the OpenAPI document, the docs page), known for 405 answers. */
export interface ExtraRoute {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
}

export const makeRouteTable = (api: HttpApi.HttpApi.Any, extra: ReadonlyArray<ExtraRoute> = []): RouteTable => {
  const exact = new Map<string, Map<string, Route>>()
  const patterns = new Map<string, PatternEntry>()
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
        bodyTypes: endpoint.method === "GET" ? new Map() : bodyTypes,
        pathSchema: endpoint.pathSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
        urlParamsSchema: endpoint.urlParamsSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
        payloadSchema,
        errorFormat: errorFormatOf(payloadSchema),
        page: Context.getOption(mergedAnnotations, HtmlPage).pipe(Option.isSome)
      }
      const regex = patternOf(endpoint.path)
      if (regex === undefined) {
        const byMethod = exact.get(endpoint.path) ?? new Map<string, Route>()
        byMethod.set(endpoint.method, route)
        exact.set(endpoint.path, byMethod)
      } else {
        const entry = patterns.get(endpoint.path) ?? { regex, routes: new Map<string, Route>() }
        entry.routes.set(endpoint.method, route)
        patterns.set(endpoint.path, entry)
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
      bodyTypes: new Map(),
      pathSchema: Option.none(),
      urlParamsSchema: Option.none(),
      payloadSchema: Option.none(),
      errorFormat: Option.none(),
      page: false
    })
    exact.set(path, byMethod)
  }
  const routesFor = (path: string): Map<string, Route> | undefined => {
    const found = exact.get(path)
    if (found) return found
    for (const entry of patterns.values()) {
      if (entry.regex.test(path)) return entry.routes
    }
    return undefined
  }
  return {
    match: (method, path) => {
      const routes = routesFor(path)
      return routes?.get(method) ?? (method === "HEAD" ? routes?.get("GET") : undefined)
    },
    allowedMethods: (path) => {
      const routes = routesFor(path)
      if (!routes) return []
      const methods = [...routes.keys()]
      if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD")
      return methods
    },
    errorFormatAt: (path) => {
      for (const route of routesFor(path)?.values() ?? []) {
        if (Option.isSome(route.errorFormat)) return route.errorFormat
      }
      return Option.none()
    },
    pageAt: (path) => [...routesFor(path)?.values() ?? []].some((route) => route.page)
  }
}
