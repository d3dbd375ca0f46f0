import { Schema } from "effect"

const Common = {
  kid: Schema.String,
  use: Schema.Literal("sig")
}

/**
 * The public JWK of a signing key as published. Decoding keeps only the listed members,
 * so a private member (d, p, q, dp, dq, qi) can never reach the JWKS even if it were stored.
 */
export const PublicJwk = Schema.Union(
  Schema.Struct({ kty: Schema.Literal("OKP"), crv: Schema.Literal("Ed25519"), x: Schema.String, alg: Schema.Literal("EdDSA"), ...Common }),
  Schema.Struct({ kty: Schema.Literal("RSA"), n: Schema.String, e: Schema.String, alg: Schema.Literal("RS256"), ...Common })
)

export type PublicJwk = typeof PublicJwk.Type

/** A JWK Set as served at the JWKS endpoint; shaped for jose's `createLocalJWKSet`. */
export interface Jwks {
  readonly keys: Array<PublicJwk>
}
