import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto"
import { call, insertApp, insertPackage, type PackageFixture } from "./support/releaseFixtures.ts"
import { newCarbon, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

/** The author manifest as decisions-reg-releases.md writes it, built here independently of the registry's code. */
const authorManifest = (appId: string, channel: string, version: string, packages: ReadonlyArray<PackageFixture>) =>
  JSON.stringify({
    type: "silicon-apps.author-manifest.v1",
    app_id: appId,
    channel,
    version,
    packages: [...packages].sort((a, b) => (a.target < b.target ? -1 : 1)).map(({ id, sha256, size, target }) => ({ id, target, sha256, size }))
  })

/** A signature checked the way a client checks it: node:crypto, against the key GET /v1/keys publishes. */
const verifiedManifest = (signature: { key_id: string; algorithm: string; manifest: string; value: string }) =>
  Effect.gen(function*() {
    const keys = yield* call("GET", "/v1/keys")
    const key = keys.body.items.find((item: { key_id: string }) => item.key_id === signature.key_id)
    expect(key).toMatchObject({ algorithm: "ed25519", status: "active" })
    expect(signature.algorithm).toBe("ed25519")
    const holds = verify(null, Buffer.from(signature.manifest, "utf8"), createPublicKey(key.public_key), Buffer.from(signature.value, "base64"))
    expect(holds).toBe(true)
    return JSON.parse(signature.manifest)
  })

const sha256 = (bytes: ArrayBuffer) => createHash("sha256").update(Buffer.from(bytes)).digest("hex")

const wirePackage = ({ id, sha256, size, target }: PackageFixture) => ({ id, target, sha256, size })

layer(RegistryTest(), { excludeTestServices: true })("releases over HTTP", (it) => {
  it.effect("the release life: create, list, promote, resolve and verify, download, install, withdraw with a replacement", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const bob = yield* signedIn(newCarbon("Bob"))
      const appId = yield* insertApp(ada.identity)
      const script = { path: "install.sh", sha256: "a".repeat(64), size: 120 }
      const linux = yield* insertPackage(appId, "linux-x64", script)
      const mac = yield* insertPackage(appId, "darwin-arm64")
      const asAda = { authorization: ada.headers.authorization }

      // An author creates a development release, signed by the author's own Ed25519 key.
      const authorKey = generateKeyPairSync("ed25519")
      const authorPem = authorKey.publicKey.export({ format: "pem", type: "spki" }).toString()
      const signedByAuthor = sign(null, Buffer.from(authorManifest(appId, "development", "1.0.0", [linux, mac])), authorKey.privateKey)
      const created = yield* call("POST", `/v1/apps/${appId}/releases`, {
        headers: asAda,
        body: {
          version: "1.0.0",
          package_ids: [linux.id, mac.id],
          notes: "First.",
          author_signature: { public_key: authorPem, value: signedByAuthor.toString("base64") }
        }
      })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        id: expect.stringMatching(/^rel_/),
        app_id: appId,
        channel: "development",
        version: "1.0.0",
        notes: "First.",
        packages: [wirePackage(mac), wirePackage(linux)],
        promoted_from: null,
        created_at: expect.any(String),
        withdrawn: null
      })
      const development = created.body

      // Listed by channel, to anyone who may see the app.
      const listed = yield* call("GET", `/v1/apps/${appId}/releases?channel=development`)
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual({ items: [development] })
      expect((yield* call("GET", `/v1/apps/${appId}/releases?channel=production`)).body).toEqual({ items: [] })
      const badChannel = yield* call("GET", `/v1/apps/${appId}/releases?channel=beta`)
      expect(badChannel.status).toBe(400)
      expect(badChannel.body.error).toEqual({
        code: "invalid_query",
        message: expect.any(String),
        hint: null,
        details: { parameter: "channel", problem: "is not an accepted value", accepted: ["production", "development"] }
      })

      // Promoted with a version of the production channel's own: a new release over the same packages.
      const promoted = yield* call("POST", `/v1/apps/${appId}/releases/${development.id}/promote`, {
        headers: asAda,
        body: { version: "2.0.0" }
      })
      expect(promoted.status).toBe(201)
      expect(promoted.body).toMatchObject({ channel: "production", version: "2.0.0", promoted_from: development.id, packages: development.packages })
      expect(promoted.body.id).not.toBe(development.id)

      // A second development release with a new linux package, promoted too.
      const linux2 = yield* insertPackage(appId, "linux-x64")
      const next = yield* call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version: "1.1.0", package_ids: [linux2.id] } })
      expect(next.status).toBe(201)
      const nextProduction = yield* call("POST", `/v1/apps/${appId}/releases/${next.body.id}/promote`, {
        headers: asAda,
        body: { version: "2.1.0" }
      })
      expect(nextProduction.status).toBe(201)

      // Resolve, channel production by default and the newest release: the manifest signed and checked with node:crypto.
      const resolved = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)
      expect(resolved.status).toBe(200)
      expect(resolved.body).toMatchObject({
        app_id: appId,
        release: { id: nextProduction.body.id, version: "2.1.0", channel: "production" },
        package: wirePackage(linux2),
        download_path: `/v1/apps/${appId}/packages/${linux2.id}/download`,
        author_signature: null,
        install_script: null,
        withdrawn: []
      })
      const manifest = yield* verifiedManifest(resolved.body.signature)
      expect(manifest).toEqual({
        type: "silicon-apps.release-manifest.v1",
        key_id: resolved.body.signature.key_id,
        app_id: appId,
        release_id: nextProduction.body.id,
        channel: "production",
        version: "2.1.0",
        packages: [wirePackage(linux2)],
        sequence: 2,
        issued_at: expect.any(String),
        expires_at: expect.any(String)
      })
      expect(Date.parse(manifest.expires_at) - Date.parse(manifest.issued_at)).toBe(24 * 3600 * 1000)

      // Resolve by version: the first production release, with the author's signature carried from development.
      const byVersion = yield* call("GET", `/v1/apps/${appId}/resolve?version=2.0.0&target=linux-x64`)
      expect(byVersion.status).toBe(200)
      expect(byVersion.body).toMatchObject({
        release: { id: promoted.body.id, version: "2.0.0" },
        package: wirePackage(linux),
        install_script: script,
        author_signature: { public_key: authorPem, manifest: authorManifest(appId, "development", "1.0.0", [linux, mac]) }
      })
      const author = byVersion.body.author_signature
      expect(verify(null, Buffer.from(author.manifest), createPublicKey(author.public_key), Buffer.from(author.value, "base64"))).toBe(true)
      const byVersionManifest = yield* verifiedManifest(byVersion.body.signature)
      expect(byVersionManifest.packages).toEqual([wirePackage(mac), wirePackage(linux)])
      const development1 = yield* call("GET", `/v1/apps/${appId}/resolve?channel=development&version=1.0.0&target=darwin-arm64`)
      expect(development1.body.package).toEqual(wirePackage(mac))

      // Download: the bytes whose digest the manifest signed.
      const { url } = yield* RegistryUnderTest
      const download = yield* Effect.promise(() => fetch(`${url}${resolved.body.download_path}`))
      expect(download.status).toBe(200)
      expect(download.headers.get("content-type")).toBe("application/gzip")
      expect(download.headers.get("content-length")).toBe(String(linux2.size))
      expect(download.headers.get("etag")).toBe(`"${linux2.sha256}"`)
      expect(sha256(yield* Effect.promise(() => download.arrayBuffer()))).toBe(manifest.packages[0].sha256)
      const again = yield* Effect.promise(() => fetch(`${url}${resolved.body.download_path}`, { headers: { "if-none-match": `"${linux2.sha256}"` } }))
      expect(again.status).toBe(304)

      // Installs: one key counts once, however often it is sent; another key counts again.
      const receipt = { release_id: nextProduction.body.id, package_id: linux2.id }
      const first = yield* call("POST", `/v1/apps/${appId}/installs`, { headers: { "idempotency-key": "install-key-0001" }, body: receipt })
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ installs: 1 })
      const retried = yield* call("POST", `/v1/apps/${appId}/installs`, { headers: { "idempotency-key": "install-key-0001" }, body: receipt })
      expect(retried.status).toBe(200)
      expect(retried.headers.get("idempotent-replayed")).toBe("true")
      expect(retried.body).toEqual({ installs: 1 })
      const other = yield* call("POST", `/v1/apps/${appId}/installs`, {
        headers: { ...bob.headers, "idempotency-key": "install-key-0002" },
        body: receipt
      })
      expect(other.body).toEqual({ installs: 2 })
      const keyless = yield* call("POST", `/v1/apps/${appId}/installs`, { body: receipt })
      expect(keyless.status).toBe(400)
      expect(keyless.body.error.code).toBe("idempotency_key_required")
      const sql = yield* SqlClient.SqlClient
      const installRows = yield* sql<{ account_uuid: string | null; target: string }>`
        select account_uuid, target from installs where app_id = ${appId} order by created_at
      `
      expect(installRows).toEqual([{ account_uuid: null, target: "linux-x64" }, { account_uuid: bob.identity.uuid, target: "linux-x64" }])

      // Withdrawn with a replacement: final, and no longer served.
      const withdrawn = yield* call("POST", `/v1/apps/${appId}/releases/${nextProduction.body.id}/withdraw`, {
        headers: asAda,
        body: { reason: "Crashes on start.", replacement_release_id: promoted.body.id }
      })
      expect(withdrawn.status).toBe(200)
      expect(withdrawn.body.withdrawn).toEqual({
        withdrawn: { at: expect.any(String), by_uuid: ada.identity.uuid, by_id: ada.identity.id, reason: "Crashes on start." },
        replacement: { release_id: promoted.body.id, version: "2.0.0" }
      })
      const twice = yield* call("POST", `/v1/apps/${appId}/releases/${nextProduction.body.id}/withdraw`, {
        headers: asAda,
        body: { reason: "Again." }
      })
      expect(twice.status).toBe(409)
      expect(twice.body.error.code).toBe("release_already_withdrawn")

      const gone = yield* call("GET", `/v1/apps/${appId}/resolve?version=2.1.0&target=linux-x64`)
      expect(gone.status).toBe(410)
      expect(gone.body.error).toEqual({
        code: "release_withdrawn",
        message: expect.stringContaining("Crashes on start."),
        hint: expect.stringContaining("2.0.0"),
        details: {
          release_id: nextProduction.body.id,
          version: "2.1.0",
          reason: "Crashes on start.",
          replacement: { release_id: promoted.body.id, version: "2.0.0" },
          withdrawn_at: withdrawn.body.withdrawn.withdrawn.at
        }
      })
      const newest = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)
      expect(newest.body.release.id).toBe(promoted.body.id)
      expect(newest.body.withdrawn).toEqual([{
        release_id: nextProduction.body.id,
        version: "2.1.0",
        reason: "Crashes on start.",
        withdrawn_at: withdrawn.body.withdrawn.withdrawn.at,
        replacement: { release_id: promoted.body.id, version: "2.0.0" }
      }])
      // The channel moved on: the manifest's number grew, so a mirror cannot serve the older state as current.
      expect((yield* verifiedManifest(newest.body.signature)).sequence).toBe(3)

      // With the development release withdrawn too, its package is only in withdrawn releases: 410, except to authors.
      const developmentWithdrawn = yield* call("POST", `/v1/apps/${appId}/releases/${next.body.id}/withdraw`, {
        headers: asAda,
        body: { reason: "Superseded." }
      })
      expect(developmentWithdrawn.body.withdrawn.replacement).toBeNull()
      const path = `/v1/apps/${appId}/packages/${linux2.id}/download`
      for (const headers of [{}, bob.headers]) {
        const refused = yield* call("GET", path, { headers })
        expect(refused.status).toBe(410)
        expect(refused.body.error.code).toBe("package_withdrawn")
      }
      const forAuthor = yield* Effect.promise(() => fetch(`${url}${path}`, { headers: asAda }))
      expect(forAuthor.status).toBe(200)
      expect(sha256(yield* Effect.promise(() => forAuthor.arrayBuffer()))).toBe(linux2.sha256)

      // The history and the registry's outbox hold the withdrawal, written with it.
      const historyRows = yield* sql<{ kind: string; actor_uuid: string; data: any }>`
        select kind, actor_uuid, data from app_history where app_id = ${appId} and kind like 'release.%' order by at, kind
      `
      expect(historyRows.map((row) => row.kind)).toEqual([
        "release.created",
        "release.promoted",
        "release.created",
        "release.promoted",
        "release.withdrawn",
        "release.withdrawn"
      ])
      expect(historyRows[4]).toEqual({
        kind: "release.withdrawn",
        actor_uuid: ada.identity.uuid,
        data: {
          release_id: nextProduction.body.id,
          channel: "production",
          version: "2.1.0",
          reason: "Crashes on start.",
          replacement: { release_id: promoted.body.id, version: "2.0.0" }
        }
      })
      const eventRows = yield* sql<{ type: string; data: any }>`
        select type, data from registry_events where app_id = ${appId} and type = 'release.withdrawn' order by position
      `
      expect(eventRows).toHaveLength(2)
      expect(eventRows[0]!.data).toMatchObject({ release_id: nextProduction.body.id, reason: "Crashes on start.", by_uuid: ada.identity.uuid })
    }))
})
