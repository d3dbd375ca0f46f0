import { Brand, Data, Effect, Redacted } from "effect"

/** A validated AES-256 key: exactly 32 bytes. */
export type EncryptionKey = Uint8Array & Brand.Brand<"EncryptionKey">

export const ENCRYPTION_KEY_BYTES = 32

export class InvalidEncryptionKey extends Data.TaggedError("InvalidEncryptionKey")<{ readonly message: string }> {}

const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/

/**
 * Decodes a configured key: base64 (or base64url) of exactly 32 bytes,
 * e.g. the output of `openssl rand -base64 32`. Anything else is a configuration error.
 */
export const decodeEncryptionKey = (base64: Redacted.Redacted<string>): Effect.Effect<EncryptionKey, InvalidEncryptionKey> => {
  const text = Redacted.value(base64).trim()
  if (!BASE64.test(text)) {
    return Effect.fail(new InvalidEncryptionKey({ message: "encryption key is not base64 (generate one with `openssl rand -base64 32`)" }))
  }
  const bytes = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64")
  if (bytes.length !== ENCRYPTION_KEY_BYTES) {
    return Effect.fail(
      new InvalidEncryptionKey({
        message: `encryption key must be base64 of exactly ${ENCRYPTION_KEY_BYTES} bytes, got ${bytes.length} bytes (generate one with \`openssl rand -base64 32\`)`
      })
    )
  }
  return Effect.succeed(toEncryptionKey(bytes))
}

const toEncryptionKey = Brand.refined<EncryptionKey>(
  (bytes) => bytes.length === ENCRYPTION_KEY_BYTES,
  (bytes) => Brand.error(`expected ${ENCRYPTION_KEY_BYTES} bytes, got ${bytes.length}`)
)

/** Wraps raw key bytes, throwing on a wrong length (for keys made in code, e.g. tests). */
export const encryptionKeyFromBytes = (bytes: Uint8Array): EncryptionKey => toEncryptionKey(bytes)
