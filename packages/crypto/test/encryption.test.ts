import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck, Redacted } from "effect"
import {
  decodeEncryptionKey,
  decryptSecret,
  encryptionKeyFromBytes,
  encryptSecret,
  isEncryptedSecret
} from "../src/index.ts"

const key = encryptionKeyFromBytes(randomBytes(32))
const otherKey = encryptionKeyFromBytes(randomBytes(32))

describe("encryptSecret / decryptSecret", () => {
  it.prop("round-trips any text", [FastCheck.string({ unit: "binary" }), FastCheck.string()], ([plaintext, aad]) => {
    const envelope = encryptSecret(key, plaintext, aad)
    expect(isEncryptedSecret(envelope)).toBe(true)
    expect(Effect.runSync(decryptSecret(key, envelope, aad))).toBe(plaintext)
  })

  it("gives a versioned envelope with a fresh IV each time", () => {
    const a = encryptSecret(key, "-----BEGIN PRIVATE KEY-----")
    const b = encryptSecret(key, "-----BEGIN PRIVATE KEY-----")
    expect(a).toMatch(/^enc\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain("PRIVATE")
  })

  it.effect("fails on a wrong key, wrong associated data, tampering or garbage", () =>
    Effect.gen(function*() {
      const envelope = encryptSecret(key, "secret", "kid-1")
      const [iv, ciphertext, tag] = envelope.slice("enc.v1.".length).split(".")
      const flipped = Buffer.from(ciphertext!, "base64url")
      flipped[0]! ^= 1
      const tampered = ["enc.v1", iv, flipped.toString("base64url"), tag].join(".")
      const attempts = [
        decryptSecret(otherKey, envelope, "kid-1"),
        decryptSecret(key, envelope, "kid-2"),
        decryptSecret(key, tampered, "kid-1"),
        decryptSecret(key, "enc.v2.a.b.c", "kid-1"),
        decryptSecret(key, "enc.v1.a.b", "kid-1"),
        decryptSecret(key, "-----BEGIN PRIVATE KEY-----", "kid-1")
      ]
      for (const attempt of attempts) {
        const result = yield* Effect.either(attempt)
        expect(Either.isLeft(result) && result.left._tag === "SecretDecryptionError").toBe(true)
      }
    }))
})

describe("decodeEncryptionKey", () => {
  it.effect("accepts base64 and base64url of 32 bytes", () =>
    Effect.gen(function*() {
      const bytes = randomBytes(32)
      const fromBase64 = yield* decodeEncryptionKey(Redacted.make(bytes.toString("base64")))
      const fromBase64Url = yield* decodeEncryptionKey(Redacted.make(bytes.toString("base64url")))
      expect(Buffer.from(fromBase64).equals(bytes)).toBe(true)
      expect(Buffer.from(fromBase64Url).equals(bytes)).toBe(true)
    }))

  it.effect("refuses a wrong length or non-base64 with a clear message", () =>
    Effect.gen(function*() {
      for (const value of [randomBytes(16).toString("base64"), randomBytes(33).toString("base64"), "", "not base64 at all!"]) {
        const result = yield* Effect.either(decodeEncryptionKey(Redacted.make(value)))
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left._tag).toBe("InvalidEncryptionKey")
          expect(result.left.message).toMatch(/encryption key/)
        }
      }
    }))

  it("rejects raw bytes of the wrong length", () => {
    expect(() => encryptionKeyFromBytes(randomBytes(31))).toThrow()
  })
})
