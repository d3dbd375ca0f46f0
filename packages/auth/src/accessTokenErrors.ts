import { Schema } from "effect"

/**
 * The token is not an access token of the trusted issuer: malformed, not an access token
 * (an id or identity token), signed by a key the issuer does not publish, a signature that
 * does not hold, another issuer, or claims missing.
 */
export class AccessTokenInvalid extends Schema.TaggedError<AccessTokenInvalid>()("AccessTokenInvalid", {
  reason: Schema.Literal("malformed", "not_access_token", "unknown_key", "bad_signature", "wrong_issuer", "invalid_claims"),
  message: Schema.String
}) {}

/** A genuine access token past its `exp`: the client should refresh it. */
export class AccessTokenExpired extends Schema.TaggedError<AccessTokenExpired>()("AccessTokenExpired", {
  message: Schema.String
}) {}

/** A genuine access token issued for another audience. */
export class AccessTokenWrongAudience extends Schema.TaggedError<AccessTokenWrongAudience>()("AccessTokenWrongAudience", {
  message: Schema.String
}) {}

/** The issuer's JWKS could not be read, so the token can be neither accepted nor refused (answer 503, not 401). */
export class JwksUnavailable extends Schema.TaggedError<JwksUnavailable>()("JwksUnavailable", {
  message: Schema.String
}) {}

export type AccessTokenRejected = AccessTokenInvalid | AccessTokenExpired | AccessTokenWrongAudience
