import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { OriginNotAllowed } from "./errors.ts"

/**
 * State-changing requests from a browser must come from one of our origins.
 * A missing Origin is refused too: every browser sends it on POST.
 */
export const requireOrigin = (
  allowed: ReadonlyArray<string>
): Effect.Effect<void, OriginNotAllowed, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const origin = request.headers["origin"]
    return origin !== undefined && allowed.includes(origin)
      ? Effect.void
      : Effect.fail(
        new OriginNotAllowed({
          message: origin === undefined
            ? "This request needs an Origin header from an allowed origin."
            : `Requests from ${origin} are not allowed here.`
        })
      )
  })
