import { HttpServerRequest } from "@effect/platform"
import { mediaTypeOf } from "@platform/http"
import { Effect } from "effect"

/** The request's media type (lower-case, no parameters); the conventions already refused a body without one the route takes. */
export const requestMediaType = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => mediaTypeOf(request.headers["content-type"] ?? "") ?? ""
)
