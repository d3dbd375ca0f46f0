import { Schema } from "effect"

const X_MESSAGE = "must be the 32-byte public key in base64url without padding"

// Canonical only: the unused low bits of the last character must be zero, so one key has one text.
const isCanonical = (x: string): boolean => Buffer.from(x, "base64url").toString("base64url") === x

/** An Ed25519 public key as a JWK (RFC 8037), canonical members only: what is stored, shown and hashed for the key id. */
export const Ed25519PublicJwk = Schema.Struct({
  kty: Schema.Literal("OKP"),
  crv: Schema.Literal("Ed25519"),
  x: Schema.String
}).annotations({ identifier: "Ed25519PublicJwk" })
export type Ed25519PublicJwk = typeof Ed25519PublicJwk.Type

/**
 * The `public_key` a caller sends. Members other than these are ignored, as
 * RFC 7517 §4 asks (tools add `kid`, `alg`, `use`, `ext`, `key_ops`); the
 * private member `d` is refused, so a private key sent by mistake is never stored.
 */
export const Ed25519PublicJwkInput = Schema.Struct(
  {
    kty: Schema.Literal("OKP").annotations({ message: () => "must be OKP (Ed25519 keys only)" }),
    crv: Schema.Literal("Ed25519").annotations({ message: () => "must be Ed25519" }),
    x: Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9_-]{43}$/, { message: () => X_MESSAGE }),
      Schema.filter(isCanonical, { message: () => X_MESSAGE })
    ),
    d: Schema.optional(
      Schema.Never.annotations({ message: () => "must not be sent: register the public key only, never the private one" })
    )
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({
  identifier: "Ed25519PublicJwkInput",
  description: "An Ed25519 public JWK {kty: OKP, crv: Ed25519, x}; other public members are ignored, d is refused"
})

export const canonicalJwk = (input: typeof Ed25519PublicJwkInput.Type): Ed25519PublicJwk => ({
  kty: input.kty,
  crv: input.crv,
  x: input.x
})
