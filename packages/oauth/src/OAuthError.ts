import { HttpApiSchema, HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"

/** Error codes of RFC 6749 §5.2, RFC 7009 and RFC 8628 that our OAuth endpoints answer with, and our rate_limited (429). */
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
  "expired_token",
  "rate_limited"
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
  error_description: Schema.String,
  /** rate_limited only: sent as Retry-After, not in the body. */
  retry_after_seconds: Schema.optional(Schema.Int)
}) {
  get status(): number {
    return this.error === "invalid_client" ? 401 : this.error === "rate_limited" ? 429 : 400
  }

  [HttpServerRespondable.symbol]() {
    const retryAfter = this.retry_after_seconds === undefined ? {} : { "retry-after": String(this.retry_after_seconds) }
    return Effect.succeed(
      HttpServerResponse.unsafeJson(
        { error: this.error, error_description: this.error_description },
        { status: this.status, headers: { ...NO_STORE_HEADERS, ...retryAfter } }
      )
    )
  }
}

const OAuthErrorBody = Schema.Struct({ error: OAuthErrorCode, error_description: Schema.String })

const DESCRIPTIONS = {
  400: ["OAuthError", "RFC 6749 §5.2 error"],
  401: ["OAuthClientError", "invalid_client (RFC 6749 §5.2)"],
  429: ["OAuthRateLimited", "rate_limited, with Retry-After"]
} as const

const oauthErrorSchema = (status: 400 | 401 | 429) =>
  Schema.transform(OAuthErrorBody, Schema.typeSchema(OAuthError), {
    strict: true,
    decode: (body) => new OAuthError(body),
    encode: (error) => ({ error: error.error, error_description: error.error_description })
  }).annotations({
    ...HttpApiSchema.annotations({ status }),
    identifier: DESCRIPTIONS[status][0],
    description: DESCRIPTIONS[status][1]
  })

/** What an OAuth endpoint declares: its errors as RFC 6749 bodies, 400 and 401. */
export const OAuthErrorResponses = [oauthErrorSchema(400), oauthErrorSchema(401)] as const

/** 429 rate_limited, for an endpoint with a rate limit (the token endpoint). */
export const OAuthRateLimitedResponse = oauthErrorSchema(429)

export const oauthError = (error: OAuthErrorCode, description: string) =>
  new OAuthError({ error, error_description: description })
