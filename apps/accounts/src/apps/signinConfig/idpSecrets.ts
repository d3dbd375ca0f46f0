import { createPrivateKey } from "node:crypto"
import { Either, ParseResult, Schema } from "effect"

/** The write-only idp secrets of a signin-config patch. Problems never echo the secret. */

/** idp_a.client_secret: 1 to 1024 printable characters. */
export const ClientSecret = Schema.String.pipe(
  Schema.filter((s) =>
    s.length >= 1 && s.length <= 1024 && !/[\u0000-\u001f\u007f]/.test(s) ||
    "must be 1 to 1024 characters without control characters"
  )
).annotations({ identifier: "IdpClientSecret" })

const PKCS8_HEADER = /^-----BEGIN PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END PRIVATE KEY-----\s*$/

/**
 * A PKCS#8 PEM of a P-256 (prime256v1) private key, re-exported canonically
 * so that the same key sent twice compares equal.
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

export const IdpPrivateKey = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (pem, _, ast) =>
    Either.mapLeft(checkP256PrivateKey(pem), (message) => new ParseResult.Type(ast, "(private key)", message)),
  encode: ParseResult.succeed
}).annotations({ identifier: "IdpPrivateKey", description: "PKCS#8 PEM of a P-256 private key" })
