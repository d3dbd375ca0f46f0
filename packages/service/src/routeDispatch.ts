import { type HttpApp, HttpRouter, HttpServerError, HttpServerRequest, HttpServerRespondable, type HttpServerResponse } from "@effect/platform"
import { pathOf, type RouteTable, searchParamsOf } from "@platform/http"
import { Chunk, Context, Effect, FiberRef, Option } from "effect"
import type { CompiledEndpoint } from "./compiledEndpoints.ts"

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
  compiled: ReadonlyMap<string, CompiledEndpoint>
): HttpApp.Default<HttpServerError.RouteNotFound> => {
  if (Chunk.size(router.mounts) > 0) throw new Error("dispatchRoutes: mounted apps are not supported")
  // Each route with what answers it: its compiled endpoint, or else its effect from HttpApiBuilder's router.
  const targets = new Map<string, { readonly route: HttpRouter.Route<unknown, unknown>; readonly answer: CompiledEndpoint | undefined }>()
  for (const route of router.routes) {
    if (Option.isSome(route.prefix)) throw new Error(`dispatchRoutes: ${route.path} has a prefix; not supported`)
    const key = `${route.method} ${route.path}`
    targets.set(key, { route, answer: compiled.get(key) })
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
    const target = matched === undefined ? undefined : targets.get(`${matched.method} ${matched.path}`)
    if (matched === undefined || target === undefined) return Effect.fail(new HttpServerError.RouteNotFound({ request }))
    const { answer, route } = target
    const params = table.params(matched, path)
    const search = searchParamsOf(request.url)
    const routeContext: HttpRouter.RouteContext = { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, params, route }
    const inRoute = new Map(context.unsafeMap)
    inRoute.set(HttpRouter.RouteContext.key, routeContext)
    inRoute.set(HttpServerRequest.ParsedSearchParams.key, search)
    const response = (answer === undefined
      ? Effect.flatMap(route.handler, HttpServerRespondable.toResponse)
      : answer(request, params, search)) as Effect.Effect<HttpServerResponse.HttpServerResponse>
    return Effect.locally(
      route.uninterruptible ? response : Effect.interruptible(response),
      FiberRef.currentContext,
      Context.unsafeMake(inRoute)
    )
  })
}
