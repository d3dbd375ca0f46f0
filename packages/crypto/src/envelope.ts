import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { Data, Effect, Option } from "effect"
import type { EncryptionKey } from "./encryption-key.ts"

/**
 * Envelope format, version 1: `enc.v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 * AES-256-GCM with a fresh 96-bit IV per message and a 128-bit tag. The version lets a later
 * format (another cipher, a key id for key rotation) be read beside this one.
 */
const PREFIX = "enc.v1."
const IV_BYTES = 12
const TAG_BYTES = 16

export class SecretDecryptionError extends Data.TaggedError("SecretDecryptionError")<{ readonly message: string }> {}

/** Whether a stored value is an envelope made by `encryptSecret` (rather than plaintext). */
export const isEncryptedSecret = (value: string): boolean => value.startsWith("enc.")

/**
 * Encrypts `plaintext` under `key`. `associatedData` (e.g. the row's id) is authenticated but
 * not stored: decryption must pass the same value, so an envelope copied to another row fails.
 */
export const encryptSecret = (key: EncryptionKey, plaintext: string, associatedData = ""): string => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(associatedData, "utf8"))
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return PREFIX + [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".")
}

/** Decrypts an envelope made by `encryptSecret`; fails on a wrong key, wrong associated data or tampering. */
export const decryptSecret = (
  key: EncryptionKey,
  envelope: string,
  associatedData = ""
): Effect.Effect<string, SecretDecryptionError> => {
  if (!envelope.startsWith(PREFIX)) {
    return Effect.fail(new SecretDecryptionError({ message: "not an encrypted secret of a supported version (expected enc.v1.)" }))
  }
  const parts = envelope.slice(PREFIX.length).split(".")
  const [iv, ciphertext, tag] = parts.map((part) => Buffer.from(part, "base64url"))
  if (parts.length !== 3 || iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
    return Effect.fail(new SecretDecryptionError({ message: "malformed encrypted secret" }))
  }
  return Effect.try({
    try: () => {
      const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
      decipher.setAAD(Buffer.from(associatedData, "utf8"))
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8")
    },
    catch: () => new SecretDecryptionError({ message: "encrypted secret failed authentication (wrong key or altered data)" })
  })
}

/** Encrypts `plaintext` when a key is configured, else keeps it as is (development without a key). */
export const sealSecret = (key: Option.Option<EncryptionKey>, plaintext: string, associatedData = ""): string =>
  Option.isSome(key) ? encryptSecret(key.value, plaintext, associatedData) : plaintext

/** Reads a value stored by `sealSecret`: decrypted when it is an envelope (which then needs the key). */
export const openSecret = (
  key: Option.Option<EncryptionKey>,
  stored: string,
  associatedData = ""
): Effect.Effect<string, SecretDecryptionError> => {
  if (!isEncryptedSecret(stored)) return Effect.succeed(stored)
  return Option.isSome(key)
    ? decryptSecret(key.value, stored, associatedData)
    : Effect.fail(new SecretDecryptionError({ message: "an encrypted secret is stored but no key encryption key is set" }))
}
