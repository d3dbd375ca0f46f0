import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto"
import { call, insertApp, insertPackage, type PackageFixture } from "./support/releaseFixtures.ts"
import { newCarbon, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

/** The author manifest as decisions.md writes it, built here independently of the registry's code. */
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

  describe("the rules of releases", () => {
    /** An app of Ada's with packages for two targets. */
    const adasApp = (fixture: Parameters<typeof insertApp>[1] = {}) =>
      Effect.gen(function*() {
        const ada = yield* signedIn(newCarbon("Ada"))
        const appId = yield* insertApp(ada.identity, fixture)
        const linux = yield* insertPackage(appId, "linux-x64")
        const windows = yield* insertPackage(appId, "windows-x64")
        return { ada, appId, linux, windows, asAda: ada.headers }
      })

    it.effect("create: only the app's packages, one per target, a version of the right form not taken in the channel, by an author", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux, windows } = yield* adasApp()
        const other = yield* adasApp()
        const create = (body: unknown, headers: Record<string, string> = asAda) => call("POST", `/v1/apps/${appId}/releases`, { headers, body })

        const foreign = yield* create({ version: "1.0.0", package_ids: [linux.id, other.linux.id, "pkg_nothing"] })
        expect(foreign.status).toBe(422)
        expect(foreign.body.error).toMatchObject({ code: "packages_not_of_app", details: { package_ids: [other.linux.id, "pkg_nothing"] } })

        const second = yield* insertPackage(appId, "linux-x64")
        const repeated = yield* create({ version: "1.0.0", package_ids: [linux.id, windows.id, second.id] })
        expect(repeated.status).toBe(422)
        expect(repeated.body.error).toMatchObject({ code: "duplicate_targets", details: { targets: ["linux-x64"] } })

        for (const version of ["1.0", "01.0.0", "1.0.0+build.5", "v1.0.0", "1.0.0-"]) {
          const malformed = yield* create({ version, package_ids: [linux.id] })
          expect(malformed.status).toBe(422)
          expect(malformed.body.error).toMatchObject({ code: "validation_failed", details: { fields: { version: expect.stringContaining("MAJOR.MINOR.PATCH") } } })
        }
        expect((yield* create({ version: "1.0.0", package_ids: [] })).body.error.details.fields).toEqual({ package_ids: "must name at least one package" })
        expect((yield* create({ version: "1.0.0", package_ids: [linux.id], channel: "production" })).status).toBe(422)

        expect((yield* create({ version: "1.0.0-rc.1", package_ids: [linux.id] })).status).toBe(201)
        const taken = yield* create({ version: "1.0.0-rc.1", package_ids: [windows.id] })
        expect(taken.status).toBe(409)
        expect(taken.body.error).toMatchObject({ code: "version_taken", details: { channel: "development", version: "1.0.0-rc.1" } })

        const bob = yield* signedIn(newCarbon("Bob"))
        expect((yield* create({ version: "1.0.1", package_ids: [linux.id] }, bob.headers)).body.error.code).toBe("not_an_author")
        expect((yield* create({ version: "1.0.1", package_ids: [linux.id] }, {})).status).toBe(401)
      }))

    it.effect("an author signature that does not verify is 422 with the exact text to sign", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux } = yield* adasApp()
        const key = generateKeyPairSync("ed25519")
        const publicKey = key.publicKey.export({ format: "pem", type: "spki" }).toString()
        const wrongText = sign(null, Buffer.from(authorManifest(appId, "development", "9.9.9", [linux])), key.privateKey).toString("base64")
        const refused = yield* call("POST", `/v1/apps/${appId}/releases`, {
          headers: asAda,
          body: { version: "1.0.0", package_ids: [linux.id], author_signature: { public_key: publicKey, value: wrongText } }
        })
        expect(refused.status).toBe(422)
        expect(refused.body.error).toMatchObject({
          code: "author_signature_invalid",
          details: { manifest: authorManifest(appId, "development", "1.0.0", [linux]) }
        })
        const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "pem", type: "spki" }).toString()
        const notEd25519 = yield* call("POST", `/v1/apps/${appId}/releases`, {
          headers: asAda,
          body: { version: "1.0.0", package_ids: [linux.id], author_signature: { public_key: rsa, value: wrongText } }
        })
        expect(notEd25519.body.error.code).toBe("author_signature_invalid")

        // Signed at promotion, over the production manifest, it replaces the development release's.
        const created = yield* call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version: "1.0.0", package_ids: [linux.id] } })
        const productionText = authorManifest(appId, "production", "1.0.0", [linux])
        const promoted = yield* call("POST", `/v1/apps/${appId}/releases/${created.body.id}/promote`, {
          headers: asAda,
          body: { version: "1.0.0", author_signature: { public_key: publicKey, value: sign(null, Buffer.from(productionText), key.privateKey).toString("base64") } }
        })
        expect(promoted.status).toBe(201)
        const resolved = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)
        expect(resolved.body.author_signature).toMatchObject({ public_key: publicKey, manifest: productionText })
      }))

    it.effect("promote: a development release not withdrawn, to a version the production channel does not have", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux, windows } = yield* adasApp()
        const create = (version: string, id: string) => call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version, package_ids: [id] } })
        const promote = (releaseId: string, version: string) =>
          call("POST", `/v1/apps/${appId}/releases/${releaseId}/promote`, { headers: asAda, body: { version } })
        const first = yield* create("1.0.0", linux.id)
        const second = yield* create("1.1.0", windows.id)
        const production = yield* promote(first.body.id, "1.0.0")
        expect(production.status).toBe(201)
        // Each channel has its own versions: the development 1.0.0 did not take production's.
        const taken = yield* promote(second.body.id, "1.0.0")
        expect(taken.status).toBe(409)
        expect(taken.body.error).toMatchObject({ code: "version_taken", details: { channel: "production", version: "1.0.0" } })

        const again = yield* promote(production.body.id, "3.0.0")
        expect(again.status).toBe(409)
        expect(again.body.error).toMatchObject({ code: "release_not_promotable", details: { reason: "production" } })

        yield* call("POST", `/v1/apps/${appId}/releases/${second.body.id}/withdraw`, { headers: asAda, body: { reason: "Broken." } })
        const withdrawn = yield* promote(second.body.id, "1.1.0")
        expect(withdrawn.status).toBe(409)
        expect(withdrawn.body.error).toMatchObject({ code: "release_not_promotable", details: { reason: "withdrawn" } })
        expect((yield* promote("rel_nothing", "1.1.0")).body.error.code).toBe("release_not_found")
      }))

    it.effect("withdraw: a reason, and a replacement of the same app and channel that is not withdrawn", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux, windows } = yield* adasApp()
        const other = yield* adasApp()
        const create = (version: string, id: string) => call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version, package_ids: [id] } })
        const first = yield* create("1.0.0", linux.id)
        const second = yield* create("1.1.0", windows.id)
        const third = yield* create("1.2.0", windows.id)
        const production = yield* call("POST", `/v1/apps/${appId}/releases/${first.body.id}/promote`, { headers: asAda, body: { version: "1.0.0" } })
        const foreignRelease = yield* call("POST", `/v1/apps/${other.appId}/releases`, {
          headers: other.asAda,
          body: { version: "1.0.0", package_ids: [other.linux.id] }
        })
        const withdraw = (releaseId: string, body: unknown) => call("POST", `/v1/apps/${appId}/releases/${releaseId}/withdraw`, { headers: asAda, body })

        expect((yield* withdraw(second.body.id, { reason: "   " })).body.error).toMatchObject({ code: "validation_failed", details: { fields: { reason: "must say why" } } })
        expect((yield* withdraw(second.body.id, {})).status).toBe(422)
        yield* withdraw(third.body.id, { reason: "Bad build." })
        const cases: ReadonlyArray<readonly [string, string]> = [
          [second.body.id, "is the release being withdrawn"],
          [production.body.id, "is not a development release"],
          [foreignRelease.body.id, `is not a release of ${appId}`],
          [third.body.id, "is withdrawn itself"]
        ]
        for (const [replacement, problem] of cases) {
          const refused = yield* withdraw(second.body.id, { reason: "Broken.", replacement_release_id: replacement })
          expect(refused.status).toBe(422)
          expect(refused.body.error).toMatchObject({ code: "invalid_replacement", details: { replacement_release_id: replacement, problem } })
        }
        const bob = yield* signedIn(newCarbon("Bob"))
        const notAuthor = yield* call("POST", `/v1/apps/${appId}/releases/${second.body.id}/withdraw`, { headers: bob.headers, body: { reason: "Mine now." } })
        expect(notAuthor.body.error.code).toBe("not_an_author")
        const done = yield* withdraw(second.body.id, { reason: "Broken.", replacement_release_id: first.body.id })
        expect(done.body.withdrawn.replacement).toEqual({ release_id: first.body.id, version: "1.0.0" })
        // Withdrawn releases stay listed, with their withdrawal.
        const listed = yield* call("GET", `/v1/apps/${appId}/releases?channel=development`)
        expect(listed.body.items.map((item: { version: string; withdrawn: unknown }) => [item.version, item.withdrawn !== null])).toEqual([
          ["1.2.0", true],
          ["1.1.0", true],
          ["1.0.0", false]
        ])
        expect((yield* call("GET", `/v1/apps/${appId}/releases`)).body.items).toHaveLength(4)
      }))

    it.effect("resolve: a known target is required, developer tokens may not resolve, nothing to serve is 404", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux } = yield* adasApp()
        const targets = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"]
        for (const query of ["", "?target=solaris-sparc"]) {
          const refused = yield* call("GET", `/v1/apps/${appId}/resolve${query}`)
          expect(refused.status).toBe(400)
          expect(refused.body.error).toMatchObject({ code: "invalid_query", details: { parameter: "target", accepted: targets } })
        }
        expect((yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64&channel=nightly`)).body.error.details).toMatchObject({
          parameter: "channel",
          accepted: ["production", "development"]
        })
        const nothing = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)
        expect(nothing.status).toBe(404)
        expect(nothing.body.error.code).toBe("release_not_found")

        const created = yield* call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version: "1.0.0", package_ids: [linux.id] } })
        yield* call("POST", `/v1/apps/${appId}/releases/${created.body.id}/promote`, { headers: asAda, body: { version: "1.0.0" } })
        const otherTarget = yield* call("GET", `/v1/apps/${appId}/resolve?version=1.0.0&target=darwin-x64`)
        expect(otherTarget.status).toBe(404)
        expect(otherTarget.body.error).toMatchObject({ code: "no_package_for_target", details: { target: "darwin-x64", targets: ["linux-x64"] } })
        expect((yield* call("GET", `/v1/apps/${appId}/resolve?version=1.0.0&channel=development&target=linux-x64`)).status).toBe(200)
        expect((yield* call("GET", `/v1/apps/${appId}/resolve?version=7.0.0&target=linux-x64`)).body.error.code).toBe("release_not_found")

        const developer = yield* signedIn(newCarbon("Dev"), "developer")
        const refusedDeveloper = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`, { headers: developer.headers })
        expect(refusedDeveloper.status).toBe(403)
        expect(refusedDeveloper.body.error.code).toBe("developer_token_not_allowed")
        const developerInstall = yield* call("POST", `/v1/apps/${appId}/installs`, {
          headers: { ...developer.headers, "idempotency-key": "developer-install-1" },
          body: { release_id: created.body.id, package_id: linux.id }
        })
        expect(developerInstall.status).toBe(403)
        // A developer token may download.
        expect((yield* call("GET", `/v1/apps/${appId}/packages/${linux.id}/download`, { headers: developer.headers })).status).toBe(200)
      }))

    it.effect("visibility: a draft or private app is the same 404 to those it does not admit, at every route; its authors see it", () =>
      Effect.gen(function*() {
        const draft = yield* adasApp({ status: "draft" })
        const created = yield* call("POST", `/v1/apps/${draft.appId}/releases`, { headers: draft.asAda, body: { version: "0.1.0", package_ids: [draft.linux.id] } })
        expect(created.status).toBe(201)
        const bob = yield* signedIn(newCarbon("Bob"))
        const paths = [
          `/v1/apps/${draft.appId}/releases`,
          `/v1/apps/${draft.appId}/resolve?channel=development&target=linux-x64`,
          `/v1/apps/${draft.appId}/packages/${draft.linux.id}/download`
        ]
        for (const path of paths) {
          for (const headers of [{}, bob.headers]) {
            const hidden = yield* call("GET", path, { headers })
            expect(hidden.status).toBe(404)
            expect(hidden.body.error.code).toBe("app_not_found")
          }
          expect((yield* call("GET", path, { headers: draft.asAda })).status).toBe(200)
        }
        const install = yield* call("POST", `/v1/apps/${draft.appId}/installs`, {
          headers: { ...bob.headers, "idempotency-key": "hidden-install-1" },
          body: { release_id: created.body.id, package_id: draft.linux.id }
        })
        expect(install.body.error.code).toBe("app_not_found")

        const carol = yield* signedIn(newCarbon("Carol"))
        const secret = yield* adasApp({ visibility: "private", accountIds: [carol.identity.uuid] })
        yield* call("POST", `/v1/apps/${secret.appId}/releases`, { headers: secret.asAda, body: { version: "0.1.0", package_ids: [secret.linux.id] } })
        const resolve = `/v1/apps/${secret.appId}/resolve?channel=development&target=linux-x64`
        expect((yield* call("GET", resolve, { headers: bob.headers })).status).toBe(404)
        expect((yield* call("GET", resolve, { headers: carol.headers })).status).toBe(200)

        // A package in no release: 404 to others, downloadable by its authors.
        const unreleased = `/v1/apps/${secret.appId}/packages/${secret.windows.id}/download`
        const notReleased = yield* call("GET", unreleased, { headers: carol.headers })
        expect(notReleased.status).toBe(404)
        expect(notReleased.body.error.code).toBe("package_not_found")
        expect((yield* call("GET", unreleased, { headers: secret.asAda })).status).toBe(200)
      }))

    it.effect("an install names a release of the app and a package in it", () =>
      Effect.gen(function*() {
        const { appId, asAda, linux, windows } = yield* adasApp()
        const created = yield* call("POST", `/v1/apps/${appId}/releases`, { headers: asAda, body: { version: "1.0.0", package_ids: [linux.id] } })
        const install = (body: unknown, key: string) => call("POST", `/v1/apps/${appId}/installs`, { headers: { "idempotency-key": key }, body })
        expect((yield* install({ release_id: "rel_nothing", package_id: linux.id }, "install-rule-1")).body.error.code).toBe("release_not_found")
        const outside = yield* install({ release_id: created.body.id, package_id: windows.id }, "install-rule-2")
        expect(outside.status).toBe(422)
        expect(outside.body.error.code).toBe("package_not_in_release")
        const short = yield* install({ release_id: created.body.id, package_id: linux.id }, "short")
        expect(short.status).toBe(400)
        expect(short.body.error.code).toBe("invalid_idempotency_key")
      }))
  })
})
