import { type HttpApp, HttpRouter, HttpServerError, HttpServerRequest, HttpServerRespondable, type HttpServerResponse } from "@effect/platform"
import { pathOf, type RouteTable } from "@platform/http"
import { Chunk, Context, Effect, FiberRef, Option } from "effect"
import type { CompiledEndpoint } from "./compiledEndpoints.ts"

const NO_SEARCH_PARAMS: Readonly<Record<string, string | Array<string>>> = Object.freeze({})

/** The query's parameters, a repeated one as an array (what the router gives handlers as ParsedSearchParams). */
const searchParamsOf = (url: string): Readonly<Record<string, string | Array<string>>> => {
  const start = url.indexOf("?")
  if (start === -1) return NO_SEARCH_PARAMS
  const params: Record<string, string | Array<string>> = {}
  for (const [key, value] of new URLSearchParams(url.slice(start + 1))) {
    const seen = params[key]
    params[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return params
}

/**
 * The routes an HttpApi's handlers registered (HttpApiBuilder's router), dispatched through the
 * service's own route table instead of a second router: the same handler effects, given the
 * route's parameters and the query as the router would give them, or the endpoint compiled by
 * its group (compiledGroup) where there is one. An unmatched request fails
 * with RouteNotFound, which the conventions answer (404 or 405).
 */
export const dispatchRoutes = (
  router: HttpRouter.HttpRouter<unknown, unknown>,
  table: RouteTable,
  compiled: ReadonlyMap<string, CompiledEndpoint> = new Map()
): HttpApp.Default<HttpServerError.RouteNotFound> => {
  if (Chunk.size(router.mounts) > 0) throw new Error("dispatchRoutes: mounted apps are not supported")
  const handlers = new Map<string, HttpRouter.Route<unknown, unknown>>()
  for (const route of router.routes) {
    if (Option.isSome(route.prefix)) throw new Error(`dispatchRoutes: ${route.path} has a prefix; not supported`)
    handlers.set(`${route.method} ${route.path}`, route)
  }
  // HttpApiBuilder built each group's handlers with what they need; a route asks only for the request.
  return Effect.withFiberRuntime<
    HttpServerResponse.HttpServerResponse,
    HttpServerError.RouteNotFound,
    HttpServerRequest.HttpServerRequest
  >((fiber) => {
    const context = fiber.currentContext
    const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
    const path = pathOf(request.url)
    const matched = table.match(request.method, path)
    const route = matched === undefined ? undefined : handlers.get(`${matched.method} ${matched.path}`)
    if (matched === undefined || route === undefined) return Effect.fail(new HttpServerError.RouteNotFound({ request }))
    const params = table.params(matched, path)
    const search = searchParamsOf(request.url)
    const routeContext: HttpRouter.RouteContext = { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, params, route }
    const inRoute = new Map(context.unsafeMap)
    inRoute.set(HttpRouter.RouteContext.key, routeContext)
    inRoute.set(HttpServerRequest.ParsedSearchParams.key, search)
    const endpoint = compiled.get(`${route.method} ${route.path}`)
    const response = (endpoint === undefined
      ? Effect.flatMap(route.handler, HttpServerRespondable.toResponse)
      : endpoint(request, params, search)) as Effect.Effect<HttpServerResponse.HttpServerResponse>
    return Effect.locally(
      route.uninterruptible ? response : Effect.interruptible(response),
      FiberRef.currentContext,
      Context.unsafeMake(inRoute)
    )
  })
}
