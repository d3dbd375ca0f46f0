import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Redacted } from "effect"
import { database, startSigningKeys, storedKeys, verifyWith, withEncryptionKey } from "./fixtures.ts"

const newKey = () => Redacted.make(randomBytes(32).toString("base64"))

describe("SigningKeys private keys at rest", () => {
  it.scoped("stores private keys as plain PKCS8 PEM when no encryption key is configured", () =>
    Effect.gen(function*() {
      yield* startSigningKeys()
      for (const key of yield* storedKeys) expect(key.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----/)
    }).pipe(Effect.provide(database)))

  it.scoped("stores them encrypted when a key is configured, and loads them back with it", () =>
    Effect.gen(function*() {
      const encryptionKey = newKey()
      const first = yield* startSigningKeys(withEncryptionKey(encryptionKey))
      for (const key of yield* storedKeys) {
        expect(key.private_key).toMatch(/^enc\.v1\./)
        expect(key.private_key).not.toContain("PRIVATE KEY")
      }
      const token = yield* first.signJwt("EdDSA", { sub: "c:alice" })
      const second = yield* startSigningKeys(withEncryptionKey(encryptionKey))
      yield* verifyWith(yield* second.jwks, token)
      yield* verifyWith(yield* first.jwks, yield* second.signJwt("RS256", { sub: "c:alice" }))
    }).pipe(Effect.provide(database)))

  it.scoped("refuses to start without the key, or with another key, once keys are stored encrypted", () =>
    Effect.gen(function*() {
      yield* startSigningKeys(withEncryptionKey(newKey()))
      for (const encryptionKey of [Option.none(), Option.some(newKey())]) {
        const result = yield* Effect.either(startSigningKeys({ encryptionKey }))
        expect(Either.isLeft(result) && result.left._tag).toBe("SigningKeyLoadError")
        if (Either.isLeft(result)) expect(result.left.message).toMatch(/encryption key is configured|cannot be decrypted/)
      }
    }).pipe(Effect.provide(database)))

  it.scoped("refuses an encryption key that is not base64 of 32 bytes as a configuration error", () =>
    Effect.gen(function*() {
      for (const value of [randomBytes(16).toString("base64"), "not-a-key!", ""]) {
        const result = yield* Effect.either(startSigningKeys(withEncryptionKey(Redacted.make(value))))
        expect(Either.isLeft(result) && result.left._tag).toBe("SigningKeysConfigError")
        if (Either.isLeft(result)) expect(result.left.message).toMatch(/32 bytes|base64/)
      }
      // Refused before touching the database.
      expect(yield* storedKeys).toHaveLength(0)
    }).pipe(Effect.provide(database)))

  it.scoped("refuses a refresh interval outside (0, 60] seconds", () =>
    Effect.gen(function*() {
      for (const refreshSeconds of [0, -1, 61, Number.NaN]) {
        const result = yield* Effect.either(startSigningKeys({ refreshSeconds }))
        expect(Either.isLeft(result) && result.left._tag).toBe("SigningKeysConfigError")
      }
    }).pipe(Effect.provide(database)))
})
