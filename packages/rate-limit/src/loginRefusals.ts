import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** A credential refused: the same answer whether the account or the secret was wrong. */
export class InvalidCredentials extends ApiError<InvalidCredentials>()("InvalidCredentials", {
  code: "invalid_credentials",
  status: 401
}) {}

/** Failure streaks locked the login (spec 1: ten wrong STKs in a row, 60 seconds); Retry-After follows the details. */
export class LoginLocked extends ApiError<LoginLocked>()("LoginLocked", {
  code: "login_locked",
  status: 423,
  details: Schema.Struct({
    retry_after_seconds: Schema.Int,
    locked_until: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
  })
}) {}

/** The refusal of a login locked until `lockedUntil`, at `now`: whole seconds to wait, at least one. */
export const loginLocked = (lockedUntil: Date, now: Date, message: string): LoginLocked =>
  new LoginLocked({
    message,
    details: {
      retry_after_seconds: Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)),
      locked_until: lockedUntil.toISOString()
    }
  })
