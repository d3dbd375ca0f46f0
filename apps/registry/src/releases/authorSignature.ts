import { Effect } from "effect"
import { ed25519PublicKey, verifiesText } from "../signing/ed25519.ts"
import { type AuthorManifest, authorManifestText } from "../signing/manifest.ts"
import { AuthorSignatureInvalid } from "./errors.ts"
import type { AuthorSignature } from "./Release.ts"

/**
 * The author's signature over the release's author manifest, kept with the manifest it covers; 422
 * author_signature_invalid (with the exact text to sign) when the key is not Ed25519 or the value does not verify.
 */
export const checkedAuthorSignature = (
  given: { readonly public_key: string; readonly value: string },
  manifest: AuthorManifest
): Effect.Effect<AuthorSignature, AuthorSignatureInvalid> => {
  const text = authorManifestText(manifest)
  const publicKey = ed25519PublicKey(given.public_key)
  if (publicKey === undefined) {
    return Effect.fail(
      new AuthorSignatureInvalid({
        message: "author_signature.public_key is not an Ed25519 public key.",
        hint: "Send the public key as SPKI PEM (-----BEGIN PUBLIC KEY-----).",
        details: { manifest: text }
      })
    )
  }
  return verifiesText(publicKey, text, given.value)
    ? Effect.succeed({ public_key: publicKey.export({ format: "pem", type: "spki" }).toString(), manifest: text, value: given.value })
    : Effect.fail(
      new AuthorSignatureInvalid({
        message: "author_signature.value is not an Ed25519 signature of this release's author manifest by that key.",
        hint: "Sign the UTF-8 bytes of details.manifest exactly as given and send the signature base64.",
        details: { manifest: text }
      })
    )
}
