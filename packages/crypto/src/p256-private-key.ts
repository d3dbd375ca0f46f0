import { createPrivateKey } from "node:crypto"
import { Either } from "effect"

const PKCS8_HEADER = /^-----BEGIN PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END PRIVATE KEY-----\s*$/

/**
 * A PKCS#8 PEM of a P-256 (prime256v1) private key, re-exported canonically
 * so that the same key sent twice compares equal. The problem never echoes the key.
 */
export const checkP256PrivateKey = (pem: string): Either.Either<string, string> => {
  const problem = "must be a PKCS#8 PEM private key on the P-256 curve (-----BEGIN PRIVATE KEY-----)"
  if (pem.length > 8192 || !PKCS8_HEADER.test(pem.trim())) return Either.left(problem)
  try {
    const key = createPrivateKey({ key: pem, format: "pem" })
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      return Either.left(problem)
    }
    return Either.right(String(key.export({ type: "pkcs8", format: "pem" })))
  } catch {
    return Either.left(problem)
  }
}
