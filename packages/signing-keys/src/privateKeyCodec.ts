import { decryptSecret, type EncryptionKey, encryptSecret, isEncryptedSecret } from "@platform/crypto"
import { Effect, Option } from "effect"
import { SigningKeyLoadError } from "./errors.ts"

/**
 * How a private key is stored: encrypted (AES-256-GCM, bound to its kid) when an encryption key
 * is configured, else the PKCS8 PEM itself.
 */
export const sealPrivateKey = (encryptionKey: Option.Option<EncryptionKey>, kid: string, pem: string): string =>
  Option.match(encryptionKey, {
    onNone: () => pem,
    onSome: (key) => encryptSecret(key, pem, kid)
  })

/**
 * The PKCS8 PEM of a stored private key. A plaintext PEM is still accepted when a key is
 * configured (keys made before encryption was turned on), with a warning until it is rotated out.
 */
export const openPrivateKey = (
  encryptionKey: Option.Option<EncryptionKey>,
  kid: string,
  stored: string
): Effect.Effect<string, SigningKeyLoadError> => {
  if (!isEncryptedSecret(stored)) {
    return Option.isSome(encryptionKey)
      ? Effect.as(Effect.logWarning(`signing key ${kid} is stored unencrypted; rotate keys to encrypt it`), stored)
      : Effect.succeed(stored)
  }
  return Option.match(encryptionKey, {
    onNone: () =>
      Effect.fail(
        new SigningKeyLoadError({
          kid,
          message: `signing key ${kid} is stored encrypted but no signing-key encryption key is configured`
        })
      ),
    onSome: (key) =>
      decryptSecret(key, stored, kid).pipe(
        Effect.mapError((error) =>
          new SigningKeyLoadError({ kid, message: `signing key ${kid} cannot be decrypted: ${error.message}` })
        )
      )
  })
}
