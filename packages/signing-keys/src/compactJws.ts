import { type KeyObject, sign } from "node:crypto"
import type { SigningAlg } from "./SigningAlg.ts"

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString("base64url")

/**
 * RFC 7515 compact serialization of `payload` signed with `key`, synchronously: Ed25519 needs no
 * digest (RFC 8037), RS256 is RSASSA-PKCS1-v1_5 over SHA-256. On the request path this is several
 * times cheaper than WebCrypto's sign, whose thread-pool hop costs more than the signature itself.
 */
export const signCompactJws = (
  alg: SigningAlg,
  key: KeyObject,
  header: { readonly kid: string; readonly typ?: string | undefined },
  payload: unknown
): string => {
  const signingInput = `${base64url({ alg, ...header })}.${base64url(payload)}`
  const signature = sign(alg === "EdDSA" ? null : "sha256", Buffer.from(signingInput), key)
  return `${signingInput}.${signature.toString("base64url")}`
}
