import { ApiError, errorResponse, type ErrorResponseClass } from "@platform/http"
import { Schema } from "effect"

/** The errors every area of the registry may answer; an area's own live in its folder. */

export class UnsupportedApiVersion extends ApiError<UnsupportedApiVersion>()("UnsupportedApiVersion", {
  code: "unsupported_api_version",
  status: 400,
  details: Schema.Struct({ requested: Schema.String, supported: Schema.Array(Schema.String), current: Schema.String })
}) {}

/** No usable bearer: missing, malformed, expired, another issuer or audience, or an account no longer current. */
export class Unauthenticated extends ApiError<Unauthenticated>()("Unauthenticated", {
  code: "unauthenticated",
  status: 401
}) {}

/** A developer-platform token on an operation spec 2 keeps from it. */
export class DeveloperTokenNotAllowed extends ApiError<DeveloperTokenNotAllowed>()("DeveloperTokenNotAllowed", {
  code: "developer_token_not_allowed",
  status: 403
}) {}

/** How every registry endpoint declares an error: spec 2's envelope always writes hint and details (null when empty). */
export const registryError = <E extends ErrorResponseClass>(ErrorClass: E) => errorResponse(ErrorClass, "complete")
