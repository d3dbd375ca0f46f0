import type { ApiErrorInstance } from "@platform/http"
import { Context, Effect, type Option } from "effect"
import type { Target } from "../packages/targets.ts"
import { ResolveNotAvailable } from "./errors.ts"

export interface ResolveRequest {
  readonly target: Target
  readonly channel: "production" | "development"
  /** A named version; none: the newest release not withdrawn. */
  readonly version: Option.Option<string>
}

export interface ReleaseResolution {
  readonly resolve: (appId: string, request: ResolveRequest) => Effect.Effect<unknown, ApiErrorInstance>
}

/** Until release resolution is composed in: every call is refused with resolve_not_available. */
const notAvailable: ReleaseResolution = {
  resolve: () =>
    Effect.fail(
      new ResolveNotAvailable({
        message: "Release resolution is not available in this build yet.",
        hint: "Use GET /v1/apps/{app_id}/resolve when it is served."
      })
    )
}

/**
 * Release resolution as the resolve_release tool needs it: what GET /v1/apps/{app_id}/resolve answers an
 * anonymous caller, as its JSON (spec 2's Resolve result), or its refusal (app_not_found, release_withdrawn, …).
 * The area that resolves releases provides it at composition (server.ts); without it, the tool answers
 * resolve_not_available.
 */
export class ReleaseResolver extends Context.Reference<ReleaseResolver>()("registry/ReleaseResolver", {
  defaultValue: () => notAvailable
}) {}
