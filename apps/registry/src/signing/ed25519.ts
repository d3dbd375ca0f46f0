import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto"

/** A new Ed25519 key pair: the public key as SPKI PEM (what is published), the private key as PKCS8 PEM. */
export const generateEd25519 = (): { readonly publicKeyPem: string; readonly privateKeyPem: string } => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  return {
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString()
  }
}

/**
 * The id of a public key: its RFC 7638 JWK thumbprint (SHA-256, base64url), so that anyone holding the key can
 * compute the id and a key id can never name two keys.
 */
export const keyIdOf = (publicKeyPem: string): string => {
  const { x } = createPublicKey(publicKeyPem).export({ format: "jwk" })
  return createHash("sha256").update(JSON.stringify({ crv: "Ed25519", kty: "OKP", x })).digest("base64url")
}

/** The private key of a PKCS8 PEM, for signing. */
export const privateKeyOf = (privateKeyPem: string): KeyObject => createPrivateKey(privateKeyPem)

/** The Ed25519 signature of the UTF-8 bytes of `message`, base64 (standard alphabet, padded). */
export const signText = (privateKey: KeyObject, message: string): string =>
  sign(null, Buffer.from(message, "utf8"), privateKey).toString("base64")

/** An Ed25519 public key of a SPKI PEM, or undefined when the text is not one. */
export const ed25519PublicKey = (pem: string): KeyObject | undefined => {
  try {
    const key = createPublicKey(pem)
    return key.asymmetricKeyType === "ed25519" ? key : undefined
  } catch {
    return undefined
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

/** Whether `value` (base64 or base64url) is an Ed25519 signature of the UTF-8 bytes of `message` by `publicKey`. */
export const verifiesText = (publicKey: KeyObject, message: string, value: string): boolean => {
  if (!BASE64.test(value)) return false
  const signature = Buffer.from(value, value.includes("-") || value.includes("_") ? "base64url" : "base64")
  return signature.length === 64 && verify(null, Buffer.from(message, "utf8"), publicKey, signature)
}
