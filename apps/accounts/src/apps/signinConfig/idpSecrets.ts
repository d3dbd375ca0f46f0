import { checkP256PrivateKey } from "@platform/crypto"
import { Either, ParseResult, Schema } from "effect"

/** The write-only idp secrets of a signin-config patch. Problems never echo the secret. */

/** idp_a.client_secret: 1 to 1024 printable characters. */
export const ClientSecret = Schema.String.pipe(
  Schema.filter((s) =>
    s.length >= 1 && s.length <= 1024 && !/[\u0000-\u001f\u007f]/.test(s) ||
    "must be 1 to 1024 characters without control characters"
  )
).annotations({ identifier: "IdpClientSecret" })

export const IdpPrivateKey = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (pem, _, ast) =>
    Either.mapLeft(checkP256PrivateKey(pem), (message) => new ParseResult.Type(ast, "(private key)", message)),
  encode: ParseResult.succeed
}).annotations({ identifier: "IdpPrivateKey", description: "PKCS#8 PEM of a P-256 private key" })
