import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { createPublicKey, randomBytes, verify } from "node:crypto"
import { ReleaseSigningKeys } from "../src/signing/ReleaseSigningKeys.ts"
import { call, insertApp, insertPackage } from "./support/releaseFixtures.ts"
import { newCarbon, RegistryTest, signedIn } from "./support/RegistryTest.ts"

interface PublishedKey {
  readonly key_id: string
  readonly name: string
  readonly public_key: string
  readonly status: string
  readonly revoked_at: string | null
  readonly revoked_reason: string | null
}

const publishedKeys = Effect.map(call("GET", "/v1/keys"), (answer) => answer.body.items as ReadonlyArray<PublishedKey>)

/** Resolves the app and checks its signature with node:crypto against the published key; the key id used. */
const signedBy = (appId: string) =>
  Effect.gen(function*() {
    const resolved = yield* call("GET", `/v1/apps/${appId}/resolve?channel=development&target=linux-x64`)
    expect(resolved.status).toBe(200)
    const { key_id, manifest, value } = resolved.body.signature
    const key = (yield* publishedKeys).find((item) => item.key_id === key_id)
    expect(key?.status).toBe("active")
    expect(verify(null, Buffer.from(manifest), createPublicKey(key!.public_key), Buffer.from(value, "base64"))).toBe(true)
    expect(JSON.parse(manifest).key_id).toBe(key_id)
    return key_id as string
  })

/** The operator command's work, run on the test server's database (as `npm run registry -- keys …` does on the real one). */
const operator = Effect.provide(ReleaseSigningKeys, ReleaseSigningKeys.Default)

const keyEncryptionKey = Option.some(Redacted.make(randomBytes(32).toString("base64")))

layer(RegistryTest({ keyEncryptionKey }), { excludeTestServices: true })("release-signing keys over HTTP", (it) => {
  describe("publication", () => {
    it.effect("the first key is made at start and published at /v1/keys and the well-known address alike", () =>
      Effect.gen(function*() {
        const listed = yield* call("GET", "/v1/keys")
        expect(listed.status).toBe(200)
        expect(listed.headers.get("cache-control")).toBe("public, max-age=300")
        expect(listed.headers.get("access-control-allow-origin")).toBe("*")
        expect(listed.body.items).toEqual([{
          key_id: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          name: expect.stringMatching(/^release signing \d{4}-\d{2}-\d{2}$/),
          algorithm: "ed25519",
          public_key: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
          created_at: expect.any(String),
          status: "active",
          revoked_at: null,
          revoked_reason: null
        }])
        expect(createPublicKey(listed.body.items[0].public_key).asymmetricKeyType).toBe("ed25519")
        const wellKnown = yield* call("GET", "/.well-known/silicon-apps-keys.json")
        expect(wellKnown.status).toBe(200)
        expect(wellKnown.body).toEqual(listed.body)
        // The private part is sealed under the key-encryption key, never kept as PEM.
        const stored = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ private_key: string }>`select private_key from release_signing_keys`)
        expect(stored).toHaveLength(1)
        expect(stored[0]!.private_key).not.toContain("PRIVATE KEY")
      }))
  })

  describe("rotation and revocation", () => {
    it.effect("after a rotation new signatures use the new key and the old one stays listed; a revoked key is listed as revoked", () =>
      Effect.gen(function*() {
        const ada = yield* signedIn(newCarbon("Ada"))
        const appId = yield* insertApp(ada.identity)
        const linux = yield* insertPackage(appId, "linux-x64")
        const created = yield* call("POST", `/v1/apps/${appId}/releases`, { headers: ada.headers, body: { version: "1.0.0", package_ids: [linux.id] } })
        expect(created.status).toBe(201)
        const before = yield* signedBy(appId)

        const rotated = yield* Effect.flatMap(operator, (keys) => keys.rotate(Option.some("second key")))
        expect(rotated.key_id).not.toBe(before)
        expect(yield* signedBy(appId)).toBe(rotated.key_id)
        const afterRotation = yield* publishedKeys
        expect(afterRotation.map((key) => [key.key_id, key.status])).toEqual([[rotated.key_id, "active"], [before, "active"]])
        expect(afterRotation[0]!.name).toBe("second key")

        const { created: replacement, revoked } = yield* Effect.flatMap(operator, (keys) => keys.revoke(before, "Key file copied to a laptop."))
        expect(Option.isNone(replacement)).toBe(true)
        expect(revoked.status).toBe("revoked")
        const afterRevocation = yield* publishedKeys
        expect(afterRevocation.find((key) => key.key_id === before)).toMatchObject({
          status: "revoked",
          revoked_at: expect.any(String),
          revoked_reason: "Key file copied to a laptop."
        })
        expect(yield* signedBy(appId)).toBe(rotated.key_id)

        // Revoking the key that signs makes a new one at once: signing never stops.
        const last = yield* Effect.flatMap(operator, (keys) => keys.revoke(rotated.key_id, "Rotation drill."))
        expect(Option.isSome(last.created)).toBe(true)
        expect(yield* signedBy(appId)).toBe(Option.getOrThrow(last.created).key_id)
        const again = yield* Effect.flip(Effect.flatMap(operator, (keys) => keys.revoke(rotated.key_id, "Twice.")))
        expect(again._tag).toBe("SigningKeyNotActive")
      }))
  })
})
