import { Schema } from "effect"

/** A release-signing key as published (spec 2's Signing key). */
export const SigningKey = Schema.Struct({
  key_id: Schema.String.annotations({ description: "The RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key" }),
  name: Schema.String,
  algorithm: Schema.Literal("ed25519"),
  public_key: Schema.String.annotations({
    description: "The Ed25519 public key as SPKI PEM (`crypto.createPublicKey(pem)` in Node, `importSPKI(pem, 'EdDSA')` in jose)"
  }),
  created_at: Schema.Date,
  status: Schema.Literal("active", "revoked").annotations({
    description: "active: manifests it signed are to be trusted until they expire; revoked: never trust it"
  }),
  revoked_at: Schema.NullOr(Schema.Date),
  revoked_reason: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SigningKey" })
export type SigningKey = typeof SigningKey.Type

export const SigningKeyList = Schema.Struct({ items: Schema.Array(SigningKey) }).annotations({ identifier: "SigningKeyList" })
