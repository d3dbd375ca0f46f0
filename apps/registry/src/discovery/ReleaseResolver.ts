import type { ApiErrorInstance } from "@platform/http"
import { Context, type Effect, type Option } from "effect"
import type { Target } from "../targets/Targets.ts"

export interface ResolveRequest {
  readonly target: Target
  readonly channel: "production" | "development"
  /** A named version; none: the newest release not withdrawn. */
  readonly version: Option.Option<string>
}

export interface ReleaseResolution {
  readonly resolve: (appId: string, request: ResolveRequest) => Effect.Effect<unknown, ApiErrorInstance>
}

/**
 * Release resolution as the resolve_release tool needs it: what GET /v1/apps/{app_id}/resolve answers an
 * anonymous caller, as its JSON (spec 2's Resolve result), or its refusal (app_not_found, release_withdrawn, …).
 * The area that resolves releases provides it at composition (server.ts), so discovery never imports it.
 */
export class ReleaseResolver extends Context.Tag("registry/ReleaseResolver")<ReleaseResolver, ReleaseResolution>() {}
