import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** A wrong token, an unknown id, or no credentials: one answer, so none tells which. */
export class InvalidCredentials extends ApiError<InvalidCredentials>()("InvalidCredentials", {
  code: "invalid_credentials",
  status: 401
}) {}

/** Ten wrong tokens in a row for one Silicon id: its login is refused for 60 seconds (Retry-After). */
export class LoginLocked extends ApiError<LoginLocked>()("LoginLocked", {
  code: "login_locked",
  status: 423,
  details: Schema.Struct({
    retry_after_seconds: Schema.Int,
    locked_until: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
  })
}) {}
