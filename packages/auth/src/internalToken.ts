import { HttpServerRequest } from "@effect/platform"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { errorResponse, type ErrorResponseClass } from "@platform/http"
import { Effect, Option, Redacted, Schema } from "effect"

/** A service's own error class (made with `ApiError`) for one way an internal call is refused. */
export type InternalTokenErrorClass<E> = ErrorResponseClass & (new(props: { readonly message: string }) => E)

/** The three refusals of an internal route, each the calling service's own class. */
export interface InternalTokenErrors<Required, Invalid, Disabled> {
  /** No `Authorization` header, or a blank one (401). */
  readonly required: InternalTokenErrorClass<Required>
  /** Not `Bearer <the configured token>` (401). */
  readonly invalid: InternalTokenErrorClass<Invalid>
  /** No token is configured, so the internal routes are off (403). */
  readonly disabled: InternalTokenErrorClass<Disabled>
}

/** The failure schema of an internal-token middleware: the three refusals, in this order, for `/openapi.json`. */
export const internalTokenFailure = <Required, Invalid, Disabled>(
  errors: InternalTokenErrors<Required, Invalid, Disabled>
) => Schema.Union(errorResponse(errors.required), errorResponse(errors.invalid), errorResponse(errors.disabled))

// The operator chooses the token, so any run of non-space characters is compared as sent
// rather than held to RFC 6750's b64token grammar.
const BEARER_CREDENTIAL = /^Bearer +(\S+)$/i

/**
 * The body of an internal-token middleware (`HttpApiMiddleware.Tag` without `security`): the
 * request must carry `Authorization: Bearer <token>`, compared in constant time with the
 * configured token; with none configured every call is refused with `disabled`.
 */
export const internalTokenCheck = <Required, Invalid, Disabled>(
  configured: Option.Option<Redacted.Redacted<string>>,
  errors: InternalTokenErrors<Required, Invalid, Disabled>
): Effect.Effect<void, Required | Invalid | Disabled, HttpServerRequest.HttpServerRequest> => {
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = Option.map(configured, (token) => sha256Hex(Redacted.value(token)))
  return Effect.gen(function*() {
    if (Option.isNone(expected)) {
      return yield* Effect.fail(new errors.disabled({ message: "Internal routes are off: no internal token is configured." }))
    }
    const request = yield* HttpServerRequest.HttpServerRequest
    const authorization = request.headers["authorization"]
    if (authorization === undefined || authorization.trim() === "") {
      return yield* Effect.fail(new errors.required({ message: "Send the internal token as a bearer token." }))
    }
    const token = BEARER_CREDENTIAL.exec(authorization.trim())?.[1]
    if (token === undefined || !constantTimeEqual(sha256Hex(token), expected.value)) {
      return yield* Effect.fail(new errors.invalid({ message: "The internal token is not valid." }))
    }
  })
}
