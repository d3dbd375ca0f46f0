import type * as jose from "jose"
import type { FederationCondition, FederationRow } from "./Federation.ts"

/** Signature algorithms an outside token may use: asymmetric only (never HS*, never none). */
export const OUTSIDE_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]

const asText = (value: unknown): string | undefined =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined

/** A condition holds when the claim equals the value, or is a list holding it; numbers and booleans compare as text. */
export const conditionHolds = (claims: jose.JWTPayload, condition: FederationCondition): boolean => {
  const claim = claims[condition.claim]
  return Array.isArray(claim)
    ? claim.some((item) => asText(item) === condition.value)
    : asText(claim) === condition.value
}

/** aud is the trust's audience, or a list that holds it (RFC 7519 §4.1.3). */
export const audienceHolds = (claims: jose.JWTPayload, trust: FederationRow): boolean =>
  claims.aud === trust.audience || (Array.isArray(claims.aud) && claims.aud.includes(trust.audience))

/** The trusts a verified token meets: its audience and every condition. */
export const trustsMet = (claims: jose.JWTPayload, trusts: ReadonlyArray<FederationRow>) =>
  trusts.filter((trust) => audienceHolds(claims, trust) && trust.conditions.every((condition) => conditionHolds(claims, condition)))
