import { ApiError } from "@platform/http"

/**
 * Every refused IAM credential: missing, malformed, unknown, expired, ended with its session, or a
 * reused refresh token (spec 2 names `unauthenticated` for the reuse). The message says which.
 */
export class Unauthenticated extends ApiError<Unauthenticated>()("Unauthenticated", {
  code: "unauthenticated",
  status: 401
}) {}
