import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerRespondable, type HttpServerResponse } from "@effect/platform"
import { type Answering, type RouteTable, searchParamsOf } from "@platform/http"
import { Chunk, type Context, Effect, Option } from "effect"
import type { CompiledEndpoint } from "./compiledEndpoints.ts"

/**
 * The routes an HttpApi's handlers registered (HttpApiBuilder's router), answered for the route the
 * conventions matched in the service's own table instead of by a second router: the same handler
 * effects, given the route's parameters and the query as the router would give them, or the
 * endpoint compiled by its group (compiledGroup) where there is one. An unmatched request fails
 * with RouteNotFound, which the conventions answer (404 or 405). Each request's fiber starts with
 * `services` (the runtime's), its compiled endpoint's group services under them, and its route's
 * parameters and query: one map, made from one prepared at start.
 */
export const dispatchRoutes = (
  router: HttpRouter.HttpRouter<unknown, unknown>,
  table: RouteTable,
  compiled: ReadonlyMap<string, CompiledEndpoint>,
  services: Context.Context<never>
): Answering => {
  if (Chunk.size(router.mounts) > 0) throw new Error("dispatchRoutes: mounted apps are not supported")
  // Each route with what answers it: its compiled endpoint, or else its effect from HttpApiBuilder's router.
  const targets = new Map<string, {
    readonly route: HttpRouter.Route<unknown, unknown>
    readonly answer: CompiledEndpoint | undefined
    readonly services: ReadonlyMap<string, unknown>
  }>()
  for (const route of router.routes) {
    if (Option.isSome(route.prefix)) throw new Error(`dispatchRoutes: ${route.path} has a prefix; not supported`)
    const key = `${route.method} ${route.path}`
    const answer = compiled.get(key)
    targets.set(key, {
      route,
      answer,
      services: answer === undefined ? services.unsafeMap : new Map([...answer.context.unsafeMap, ...services.unsafeMap])
    })
  }
  // HttpApiBuilder built each group's handlers with what they need; a route asks only for the request.
  return (request, matched, path) => {
    const target = matched === undefined ? undefined : targets.get(`${matched.method} ${matched.path}`)
    if (matched === undefined || target === undefined) {
      return { effect: Effect.fail(new HttpServerError.RouteNotFound({ request })), services: undefined }
    }
    const { answer, route } = target
    const services = new Map(target.services)
    const params = table.params(matched, path)
    const search = searchParamsOf(request.url)
    const routeContext: HttpRouter.RouteContext = { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, params, route }
    services.set(HttpRouter.RouteContext.key, routeContext)
    services.set(HttpServerRequest.ParsedSearchParams.key, search)
    const response = (answer === undefined
      ? Effect.flatMap(route.handler, HttpServerRespondable.toResponse)
      : answer.run(request, params, search)) as Effect.Effect<HttpServerResponse.HttpServerResponse>
    return { effect: route.uninterruptible ? response : Effect.interruptible(response), services }
  }
}
