import { strict } from "@platform/http"
import { Schema } from "effect"
import { Ed25519PublicJwk, Ed25519PublicJwkInput } from "./PublicKeyJwk.ts"

/** A key's id: its RFC 7638 thumbprint (SHA-256, base64url), which an assertion names as `kid`. */
export const KeyId = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{43}$/)).annotations({
  description: "RFC 7638 JWK thumbprint (SHA-256, base64url)"
})

export const NewSiliconKey = strict(Schema.Struct({
  name: Schema.String.pipe(
    Schema.minLength(1, { message: () => "must be 1 to 100 characters" }),
    Schema.maxLength(100, { message: () => "must be 1 to 100 characters" }),
    Schema.pattern(/^[^\p{Cc}]*$/u, { message: () => "must not contain control characters" })
  ),
  public_key: Ed25519PublicJwkInput
})).annotations({ identifier: "NewSiliconKey" })

/** A live key as stored. */
export const SiliconKeyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  public_jwk: Ed25519PublicJwk,
  created_at: Schema.DateFromSelf
})
export type SiliconKeyRow = typeof SiliconKeyRow.Type

export const SiliconKey = Schema.Struct({
  id: KeyId,
  name: Schema.String,
  public_key: Ed25519PublicJwk,
  created_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "SiliconKey" })

export const SiliconKeyList = Schema.Struct({
  items: Schema.Array(SiliconKey),
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Always null: a Silicon has at most 10 live keys" })
}).annotations({ identifier: "SiliconKeyList" })

export const siliconKey = (row: SiliconKeyRow): typeof SiliconKey.Type => ({
  id: row.id,
  name: row.name,
  public_key: row.public_jwk,
  created_at: row.created_at.toISOString()
})
