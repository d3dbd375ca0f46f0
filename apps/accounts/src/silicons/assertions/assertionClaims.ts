import { Either } from "effect"
import type * as jose from "jose"

/** An assertion lives at most this long (spec 1, Key sign-in assertion). */
export const MAX_ASSERTION_SECONDS = 300
/** How far ahead of ours a Silicon's clock may run: iat and nbf up to this far in the future are accepted. */
export const CLOCK_SKEW_SECONDS = 30
const MAX_JTI_LENGTH = 200

export interface AcceptedClaims {
  readonly jti: string
  /** Until when the jti must stay remembered. */
  readonly expiresAt: Date
}

const isNumericDate = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)

/**
 * The claims rules of a key sign-in assertion, checked once its signature
 * holds; a refusal says which rule failed (the signer may read it).
 */
export const checkAssertionClaims = (
  claims: jose.JWTPayload,
  audience: string,
  now: Date
): Either.Either<AcceptedClaims, string> => {
  const at = now.getTime() / 1000
  const { aud, exp, iat, nbf, jti } = claims
  // RFC 7523 §3: aud may be an array that contains the token endpoint.
  if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) {
    return Either.left(`aud must be the token endpoint, ${audience}.`)
  }
  if (!isNumericDate(exp)) return Either.left("exp is required (seconds since the epoch).")
  if (exp <= at) return Either.left("The assertion has expired.")
  if (iat !== undefined && !isNumericDate(iat)) return Either.left("iat must be seconds since the epoch.")
  if (iat !== undefined && iat > at + CLOCK_SKEW_SECONDS) return Either.left("iat is in the future.")
  if (iat === undefined && exp - at > MAX_ASSERTION_SECONDS) {
    return Either.left(`Without iat, exp must be at most ${MAX_ASSERTION_SECONDS} seconds from now.`)
  }
  if (iat !== undefined && exp - iat > MAX_ASSERTION_SECONDS) {
    return Either.left(`exp must be at most ${MAX_ASSERTION_SECONDS} seconds after iat.`)
  }
  if (nbf !== undefined && !(isNumericDate(nbf) && nbf <= at + CLOCK_SKEW_SECONDS)) {
    return Either.left("The assertion is not valid yet (nbf).")
  }
  if (typeof jti !== "string" || jti.length === 0 || jti.length > MAX_JTI_LENGTH) {
    return Either.left(`jti is required: 1 to ${MAX_JTI_LENGTH} characters, new for every assertion.`)
  }
  return Either.right({ jti, expiresAt: new Date(exp * 1000) })
}
