import { Effect, Layer, Option } from "effect"
import { ReleaseResolver } from "../discovery/ReleaseResolver.ts"
import { Resolver } from "./Resolver.ts"

/** Discovery's resolve_release tool resolves as GET /v1/apps/{app_id}/resolve does for an anonymous caller. */
export const ReleaseResolverLive = Layer.effect(
  ReleaseResolver,
  Effect.map(Resolver, (resolver) => ({
    resolve: (appId, request) =>
      resolver.resolve(appId, Option.none(), {
        channel: request.channel,
        version: Option.getOrUndefined(request.version),
        target: request.target
      })
  }))
).pipe(Layer.provide(Resolver.Default))
