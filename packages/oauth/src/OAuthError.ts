import { HttpApiSchema, HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"

/** Error codes of RFC 6749 §5.2, RFC 7009 and RFC 8628 that our OAuth endpoints answer with. */
export const OAuthErrorCode = Schema.Literal(
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "unsupported_token_type",
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token"
)
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/** Every OAuth error answer is never cached (RFC 6749 §5.1). */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { "cache-control": "no-store", pragma: "no-cache" }

/**
 * The OAuth endpoints' own error body, `{error, error_description}` (RFC 6749
 * §5.2), never cached; `invalid_client` is 401, every other code 400.
 */
export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  error: OAuthErrorCode,
  error_description: Schema.String
}) {
  get status(): number {
    return this.error === "invalid_client" ? 401 : 400
  }

  [HttpServerRespondable.symbol]() {
    return Effect.succeed(
      HttpServerResponse.unsafeJson(
        { error: this.error, error_description: this.error_description },
        { status: this.status, headers: NO_STORE_HEADERS }
      )
    )
  }
}

const OAuthErrorBody = Schema.Struct({ error: OAuthErrorCode, error_description: Schema.String })

const oauthErrorSchema = (status: 400 | 401) =>
  Schema.transform(OAuthErrorBody, Schema.typeSchema(OAuthError), {
    strict: true,
    decode: (body) => new OAuthError(body),
    encode: (error) => ({ error: error.error, error_description: error.error_description })
  }).annotations({
    ...HttpApiSchema.annotations({ status }),
    identifier: status === 401 ? "OAuthClientError" : "OAuthError",
    description: status === 401 ? "invalid_client (RFC 6749 §5.2)" : "RFC 6749 §5.2 error"
  })

/** What an OAuth endpoint declares: its errors as RFC 6749 bodies, 400 and 401. */
export const OAuthErrorResponses = [oauthErrorSchema(400), oauthErrorSchema(401)] as const

export const oauthError = (error: OAuthErrorCode, description: string) =>
  new OAuthError({ error, error_description: description })
