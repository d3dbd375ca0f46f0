import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { errorResponse } from "@platform/http"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { AccountsConfig } from "../config.ts"
import { InternalApiDisabled, InternalTokenRequired, InvalidInternalToken } from "./errors.ts"

/** Registry-only internal routes: `Authorization: Bearer <ACCOUNTS_INTERNAL_TOKEN>`. */
export class InternalAuth extends HttpApiMiddleware.Tag<InternalAuth>()("InternalAuth", {
  failure: Schema.Union(
    errorResponse(InternalTokenRequired),
    errorResponse(InvalidInternalToken),
    errorResponse(InternalApiDisabled)
  )
}) {}

export const InternalAuthLive = Layer.effect(
  InternalAuth,
  Effect.map(AccountsConfig, (config) => {
    // Digests of equal length, so the comparison takes the same time whatever was sent.
    const expected = Option.map(config.internalToken, (token) => sha256Hex(Redacted.value(token)))
    return Effect.gen(function*() {
      if (Option.isNone(expected)) {
        return yield* new InternalApiDisabled({ message: "Internal routes are off: no internal token is configured." })
      }
      const request = yield* HttpServerRequest.HttpServerRequest
      const authorization = request.headers["authorization"]
      if (authorization === undefined || authorization.trim() === "") {
        return yield* new InternalTokenRequired({ message: "Send the internal token as a bearer token." })
      }
      const token = /^Bearer +(\S+)$/i.exec(authorization.trim())?.[1]
      if (token === undefined || !constantTimeEqual(sha256Hex(token), expected.value)) {
        return yield* new InvalidInternalToken({ message: "The internal token is not valid." })
      }
    })
  })
)
