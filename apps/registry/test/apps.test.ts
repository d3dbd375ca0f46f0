import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { FakeAccounts, FakeAccountsApps } from "@platform/accounts-identity-api"
import { sha256Hex } from "@platform/crypto"
import { Effect, Option } from "effect"
import { call, DESCRIPTION, newAppId, packagedRelease } from "./support/catalogue.ts"
import { newCarbon, newSilicon, RegistryTest, signedIn } from "./support/RegistryTest.ts"

/** A draft app created by a new signed-in Carbon. */
const draftApp = (name = "Ada") =>
  Effect.gen(function*() {
    const owner = yield* signedIn(newCarbon(name))
    const appId = newAppId()
    const created = yield* call("POST", "/v1/apps", { headers: owner.headers, body: { app_id: appId, name: "Notes" } })
    expect(created.status).toBe(201)
    return { owner, appId, secret: created.body.app_secret as string }
  })

/** A published app: described, with a package in a release. */
const publishedApp = (appId?: string) =>
  Effect.gen(function*() {
    const owner = yield* signedIn(newCarbon("Pub"))
    const id = appId ?? newAppId()
    expect((yield* call("POST", "/v1/apps", { headers: owner.headers, body: { app_id: id, name: "Pub", description: DESCRIPTION } })).status).toBe(201)
    yield* packagedRelease(id, owner.identity.uuid)
    const published = yield* call("POST", `/v1/apps/${id}/publish`, { headers: owner.headers, body: {} })
    expect(published.status).toBe(200)
    return { owner, appId: id }
  })

layer(RegistryTest(), { excludeTestServices: true })("apps over HTTP", (it) => {
  describe("create", () => {
    it.effect("201 with the draft app and its secret, shown once; accounts gets the app with only the secret's SHA-256", () =>
      Effect.gen(function*() {
        const ada = yield* signedIn(newCarbon("Ada"))
        const appId = newAppId("notes")
        const created = yield* call("POST", "/v1/apps", {
          headers: ada.headers,
          body: { app_id: appId, name: "  Notes  ", logo: "https://cdn.example.com/notes.png" }
        })
        expect(created.status).toBe(201)
        expect(created.headers.get("apps-version")).toBe("2026-10-09")
        expect(created.body).toEqual({
          app: {
            app_id: appId,
            name: "Notes",
            description: null,
            logo: "https://cdn.example.com/notes.png",
            banner: null,
            carousel: [],
            links: { website: null, developer_docs: null, android: null, ios: null, custom: [] },
            tags: [],
            setup_step: 1,
            status: "draft",
            visibility: "public",
            administrator_uuid: ada.identity.uuid,
            rating: null,
            installs: 0,
            created_at: expect.any(String),
            updated_at: expect.any(String),
            published_at: null,
            access: { visibility: "public", domains: [], account_ids: [] }
          },
          app_secret: expect.stringMatching(/^sas_[A-Za-z0-9_-]{43}$/)
        })
        const secret = created.body.app_secret
        const shown = yield* call("GET", `/v1/apps/${appId}`, { headers: ada.headers })
        expect(shown.status).toBe(200)
        expect(JSON.stringify(shown.body)).not.toContain(secret)

        const fake = yield* FakeAccountsApps
        const synced = (yield* fake.calls).filter((sync) => sync.appId === appId)
        expect(synced).toEqual([{
          appId,
          app: {
            name: "Notes",
            description: null,
            homepage_url: null,
            logo_url: "https://cdn.example.com/notes.png",
            owner_uuid: ada.identity.uuid,
            coauthor_uuids: [],
            status: "active",
            app_secret_sha256: sha256Hex(secret)
          }
        }])
      }))

    it.effect("409 app_id_taken; 422 validation_failed naming each bad field; 401 without a token", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const again = yield* call("POST", "/v1/apps", { headers: owner.headers, body: { app_id: appId, name: "Again" } })
        expect(again.status).toBe(409)
        expect(again.body.error).toMatchObject({ code: "app_id_taken", hint: expect.any(String), details: null })

        const bad = yield* call("POST", "/v1/apps", {
          headers: owner.headers,
          body: { app_id: "-Bad Id", name: "", logo: "http://insecure.example.com/x.png", extra: 1 }
        })
        expect(bad.status).toBe(422)
        expect(bad.body.error.code).toBe("validation_failed")
        expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(["app_id", "extra", "logo", "name"])
        expect(bad.body.error.details.fields.app_id).toContain("3 to 30 characters")

        const anonymous = yield* call("POST", "/v1/apps", { body: { app_id: newAppId(), name: "X" } })
        expect(anonymous.status).toBe(401)
      }))

    it.effect("accounts down: 503 accounts_unavailable and no app; an id accounts holds elsewhere: 409 app_id_taken", () =>
      Effect.gen(function*() {
        const ada = yield* signedIn(newCarbon("Ada"))
        const fake = yield* FakeAccountsApps
        const appId = newAppId("down")
        yield* fake.setUnavailable(true)
        const down = yield* call("POST", "/v1/apps", { headers: ada.headers, body: { app_id: appId, name: "Down" } })
        yield* fake.setUnavailable(false)
        expect(down.status).toBe(503)
        expect(down.body.error.code).toBe("accounts_unavailable")
        expect((yield* call("GET", `/v1/apps/availability/${appId}`)).body.available).toBe(true)
        expect((yield* call("GET", `/v1/apps/${appId}`, { headers: ada.headers })).status).toBe(404)

        const claimed = newAppId("claimed")
        yield* fake.claim(claimed)
        const conflict = yield* call("POST", "/v1/apps", { headers: ada.headers, body: { app_id: claimed, name: "Mine" } })
        expect(conflict.status).toBe(409)
        expect(conflict.body.error.code).toBe("app_id_taken")
        expect((yield* call("GET", `/v1/apps/availability/${claimed}`)).body.available).toBe(true)
        // Once accounts answers again the same id can be created.
        expect((yield* call("POST", "/v1/apps", { headers: ada.headers, body: { app_id: appId, name: "Up" } })).status).toBe(201)
      }))

    it.effect("a developer-platform token may create and manage apps (spec 2: app management changes)", () =>
      Effect.gen(function*() {
        const dev = yield* signedIn(newCarbon("Dev"), "developer")
        const appId = newAppId("dev")
        expect((yield* call("POST", "/v1/apps", { headers: dev.headers, body: { app_id: appId, name: "Dev" } })).status).toBe(201)
        const patched = yield* call("PATCH", `/v1/apps/${appId}`, { headers: dev.headers, body: { setup_step: 2 } })
        expect(patched.status).toBe(200)
        expect((yield* call("GET", `/v1/apps/${appId}/history`, { headers: dev.headers })).status).toBe(200)
      }))

    it.effect("a Silicon's app exists in the registry only until a Carbon becomes an author", () =>
      Effect.gen(function*() {
        const scout = yield* signedIn(newSilicon("Scout"))
        const appId = newAppId("agent")
        const created = yield* call("POST", "/v1/apps", { headers: scout.headers, body: { app_id: appId, name: "Agent" } })
        expect(created.status).toBe(201)
        expect(created.body.app.administrator_uuid).toBe(scout.identity.uuid)
        const fake = yield* FakeAccountsApps
        expect(Option.isNone(yield* fake.app(appId))).toBe(true)
      }))
  })

  describe("availability", () => {
    it.effect("free, taken, invalid; look-alikes of published public apps are named, not blocking", () =>
      Effect.gen(function*() {
        const stem = `lk${Date.now().toString(36)}`
        const { appId } = yield* publishedApp(`${stem}-notes1`)
        expect((yield* call("GET", `/v1/apps/availability/${appId}`)).body).toEqual({ available: false, reason: "taken", look_alikes: [] })
        const lookAlike = yield* call("GET", `/v1/apps/availability/${stem}_notesl`)
        expect(lookAlike.status).toBe(200)
        expect(lookAlike.body).toEqual({ available: true, reason: null, look_alikes: [appId] })
        expect((yield* call("GET", `/v1/apps/availability/${stem.replace("l", "1")}n0tes-i`)).body.look_alikes).toEqual([appId])
        expect((yield* call("GET", `/v1/apps/availability/${newAppId("free")}`)).body).toEqual({ available: true, reason: null, look_alikes: [] })
        for (const invalid of ["ab", "Upper-case", "-leading", "x".repeat(31), "dots.in.id"]) {
          expect((yield* call("GET", `/v1/apps/availability/${invalid}`)).body).toEqual({ available: false, reason: "invalid", look_alikes: [] })
        }
        // A draft's id is taken, but a draft is never named as a look-alike.
        const { appId: draft } = yield* draftApp()
        expect((yield* call("GET", `/v1/apps/availability/${draft}`)).body.available).toBe(false)
        expect((yield* call("GET", `/v1/apps/availability/${draft.replace("-", "_")}`)).body).toEqual({ available: true, reason: null, look_alikes: [] })
      }))
  })

  describe("show and visibility", () => {
    it.effect("a draft is its authors' only; a published public app is anyone's, without its access settings", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const bob = yield* signedIn(newCarbon("Bob"))
        expect((yield* call("GET", `/v1/apps/${appId}`, { headers: owner.headers })).body.access).toEqual({ visibility: "public", domains: [], account_ids: [] })
        const hidden = yield* call("GET", `/v1/apps/${appId}`, { headers: bob.headers })
        expect(hidden.status).toBe(404)
        expect(hidden.body.error).toMatchObject({ code: "app_not_found", hint: expect.any(String) })
        expect((yield* call("GET", `/v1/apps/${appId}`)).status).toBe(404)

        const published = yield* publishedApp()
        const seen = yield* call("GET", `/v1/apps/${published.appId}`)
        expect(seen.status).toBe(200)
        expect(seen.body).toMatchObject({ status: "published", access: null, published_at: expect.any(String) })
        expect((yield* call("GET", `/v1/apps/${published.appId}`, { headers: bob.headers })).body.access).toBeNull()
      }))

    it.effect("a private app: its named accounts (c:, si: ids or uuids) and verified emails at its domains", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* publishedApp()
        const bob = yield* signedIn(newCarbon("Bob"))
        const scout = yield* signedIn(newSilicon("Scout"))
        const carol = yield* signedIn({ ...newCarbon("Carol"), verified_emails: [`carol${Date.now()}@corp.example`] })
        const dave = yield* signedIn(newCarbon("Dave"))
        const set = yield* call("PUT", `/v1/apps/${appId}/access`, {
          headers: owner.headers,
          body: { visibility: "private", domains: ["corp.example"], account_ids: [bob.identity.id, scout.identity.id, dave.identity.uuid.toUpperCase()] }
        })
        expect(set.status).toBe(200)
        expect(set.body.access).toEqual({
          visibility: "private",
          domains: ["corp.example"],
          account_ids: [bob.identity.uuid, scout.identity.uuid, dave.identity.uuid]
        })
        for (const admitted of [bob, scout, carol, dave]) {
          expect((yield* call("GET", `/v1/apps/${appId}`, { headers: admitted.headers })).status).toBe(200)
        }
        const eve = yield* signedIn(newCarbon("Eve"))
        expect((yield* call("GET", `/v1/apps/${appId}`, { headers: eve.headers })).status).toBe(404)
        expect((yield* call("GET", `/v1/apps/${appId}`)).status).toBe(404)
      }))

    it.effect("access: unknown ids are 422 naming each; only the administrator may set it", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const bob = yield* signedIn(newCarbon("Bob"))
        const unknown = yield* call("PUT", `/v1/apps/${appId}/access`, {
          headers: owner.headers,
          body: { visibility: "private", domains: [], account_ids: [bob.identity.id, "c:nobody-here", "not an id", "si:ghost-x"] }
        })
        expect(unknown.status).toBe(422)
        expect(unknown.body.error).toMatchObject({ code: "validation_failed" })
        expect(unknown.body.error.details.fields).toEqual({
          "account_ids.1": "no active account is \"c:nobody-here\"",
          "account_ids.2": "\"not an id\" is not a c: id, an si: id or a uuid",
          "account_ids.3": "no active account is \"si:ghost-x\""
        })
        const badDomain = yield* call("PUT", `/v1/apps/${appId}/access`, {
          headers: owner.headers,
          body: { visibility: "secret", domains: ["Example"], account_ids: [] }
        })
        expect(badDomain.status).toBe(422)
        expect(Object.keys(badDomain.body.error.details.fields).sort()).toEqual(["domains.0", "visibility"])
        // Bob cannot see the draft: 404 as for any app he may not see.
        const notAuthor = yield* call("PUT", `/v1/apps/${appId}/access`, {
          headers: bob.headers,
          body: { visibility: "public", domains: [], account_ids: [] }
        })
        expect(notAuthor.status).toBe(404)
      }))
  })

  describe("edit, readiness, publish", () => {
    it.effect("PATCH changes any of the fields (links merge), records it, and tells accounts", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const patched = yield* call("PATCH", `/v1/apps/${appId}`, {
          headers: owner.headers,
          body: {
            name: "Notes Pro",
            description: "Short for now.",
            tags: ["notes", "productivity"],
            banner: "https://cdn.example.com/banner.png",
            carousel: [{ url: "https://cdn.example.com/1.png", kind: "image", alt: "The editor" }],
            links: { website: "https://notes.example.com", custom: [{ label: "Blog", url: "https://blog.example.com" }] },
            setup_step: 3
          }
        })
        expect(patched.status).toBe(200)
        expect(patched.body).toMatchObject({
          name: "Notes Pro",
          description: "Short for now.",
          tags: ["notes", "productivity"],
          banner: "https://cdn.example.com/banner.png",
          carousel: [{ url: "https://cdn.example.com/1.png", kind: "image", alt: "The editor" }],
          links: { website: "https://notes.example.com", developer_docs: null, android: null, ios: null, custom: [{ label: "Blog", url: "https://blog.example.com", logo: null }] },
          setup_step: 3
        })
        const more = yield* call("PATCH", `/v1/apps/${appId}`, { headers: owner.headers, body: { links: { ios: "https://apps.apple.com/app/notes" } } })
        expect(more.body.links).toMatchObject({ website: "https://notes.example.com", ios: "https://apps.apple.com/app/notes", custom: [{ label: "Blog" }] })
        const fake = yield* FakeAccountsApps
        expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ name: "Notes Pro", description: "Short for now.", homepage_url: "https://notes.example.com" })
        const history = yield* call("GET", `/v1/apps/${appId}/history`, { headers: owner.headers })
        expect(history.body.items[0]).toMatchObject({ kind: "app.updated", actor_uuid: owner.identity.uuid, data: { fields: ["links"] } })
      }))

    it.effect("PATCH refuses bad values by field, unknown fields, and non-authors", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* publishedApp()
        const bad = yield* call("PATCH", `/v1/apps/${appId}`, {
          headers: owner.headers,
          body: {
            tags: ["Notes", "ok", "ok"],
            carousel: [{ url: "http://x.example.com/1.png", kind: "gif", alt: "" }],
            links: { custom: [{ label: "x", url: "ftp://x.example.com" }] },
            setup_step: 8,
            colour: "red"
          }
        })
        expect(bad.status).toBe(422)
        // Each bad value by its path (a container of one is named too).
        expect(Object.keys(bad.body.error.details.fields)).toEqual(expect.arrayContaining([
          "carousel.0.alt",
          "carousel.0.kind",
          "carousel.0.url",
          "colour",
          "links.custom.0.url",
          "setup_step",
          "tags.0"
        ]))
        const repeated = yield* call("PATCH", `/v1/apps/${appId}`, { headers: owner.headers, body: { tags: ["ok", "ok"] } })
        expect(repeated.body.error.details.fields).toEqual({ tags: "must not repeat a tag" })
        expect(bad.body.error.details.fields["carousel.0.url"]).toBe("must be an https URL of at most 2048 characters, without credentials")
        const shortened = yield* call("PATCH", `/v1/apps/${appId}`, { headers: owner.headers, body: { description: "Too short now." } })
        expect(shortened.status).toBe(422)
        expect(shortened.body.error.details.fields.description).toContain("published")
        const bob = yield* signedIn(newCarbon("Bob"))
        const notAuthor = yield* call("PATCH", `/v1/apps/${appId}`, { headers: bob.headers, body: { name: "Mine" } })
        expect(notAuthor.status).toBe(403)
        expect(notAuthor.body.error.code).toBe("not_an_author")
      }))

    it.effect("readiness lists what publishing needs; publish refuses with it, then publishes and records it", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const readiness = yield* call("GET", `/v1/apps/${appId}/readiness`, { headers: owner.headers })
        expect(readiness.status).toBe(200)
        expect(readiness.body).toEqual({
          ready: false,
          errors: [
            { field: "description", message: "must be 200 to 600 characters to publish (it has 0)" },
            { field: "packages", message: "needs at least one accepted package in a release that is not withdrawn" }
          ],
          required_commands: ["--help", "accounts --json", "login status --json"]
        })
        const refused = yield* call("POST", `/v1/apps/${appId}/publish`, { headers: owner.headers, body: {} })
        expect(refused.status).toBe(422)
        expect(refused.body.error).toMatchObject({ code: "app_not_ready", details: { errors: readiness.body.errors } })

        yield* call("PATCH", `/v1/apps/${appId}`, { headers: owner.headers, body: { description: DESCRIPTION } })
        yield* packagedRelease(appId, owner.identity.uuid)
        expect((yield* call("GET", `/v1/apps/${appId}/readiness`, { headers: owner.headers })).body).toMatchObject({ ready: true, errors: [] })
        const extra = yield* call("POST", `/v1/apps/${appId}/publish`, { headers: owner.headers, body: { extra: true } })
        expect(extra.status).toBe(422)
        expect(extra.body.error.details.fields).toEqual({ extra: "is not a field of this request (send {})" })
        const published = yield* call("POST", `/v1/apps/${appId}/publish`, { headers: owner.headers, body: {} })
        expect(published.status).toBe(200)
        expect(published.body).toMatchObject({ status: "published", published_at: expect.any(String) })
        const again = yield* call("POST", `/v1/apps/${appId}/publish`, { headers: owner.headers, body: {} })
        expect(again.body.published_at).toBe(published.body.published_at)
        const kinds = (yield* call("GET", `/v1/apps/${appId}/history`, { headers: owner.headers })).body.items.map((item: any) => item.kind)
        expect(kinds).toEqual(["app.published", "app.updated", "app.created"])
      }))

    it.effect("a package only in a withdrawn release does not make an app ready", () =>
      Effect.gen(function*() {
        const { appId, owner } = yield* draftApp()
        const { releaseId } = yield* packagedRelease(appId, owner.identity.uuid)
        const sql = yield* SqlClient.SqlClient
        yield* Effect.orDie(sql`update releases set withdrawn_at = now(), withdrawal_reason = 'broken' where id = ${releaseId}`)
        const readiness = yield* call("GET", `/v1/apps/${appId}/readiness`, { headers: owner.headers })
        expect(readiness.body.errors.map((error: any) => error.field)).toEqual(["description", "packages"])
      }))
  })

  describe("secret and history", () => {
    it.effect("rotation: any author gets a new secret, shown once; accounts gets its digest; the history says so", () =>
      Effect.gen(function*() {
        const { appId, owner, secret } = yield* draftApp()
        const rotated = yield* call("POST", `/v1/apps/${appId}/secret/rotate`, { headers: owner.headers })
        expect(rotated.status).toBe(200)
        expect(rotated.body).toEqual({ app_secret: expect.stringMatching(/^sas_/) })
        expect(rotated.body.app_secret).not.toBe(secret)
        const fake = yield* FakeAccountsApps
        expect(Option.getOrThrow(yield* fake.app(appId)).app_secret_sha256).toBe(sha256Hex(rotated.body.app_secret))
        const history = yield* call("GET", `/v1/apps/${appId}/history?limit=1`, { headers: owner.headers })
        expect(history.body).toEqual({
          items: [{ id: expect.any(String), at: expect.any(String), actor_uuid: owner.identity.uuid, kind: "app.secret_rotated", data: {} }],
          total: 2
        })
        expect(JSON.stringify(history.body)).not.toContain(rotated.body.app_secret)
        const second = yield* call("GET", `/v1/apps/${appId}/history?limit=1&offset=1`, { headers: owner.headers })
        expect(second.body.items[0]).toMatchObject({ kind: "app.created", data: { name: "Notes" } })
        const badLimit = yield* call("GET", `/v1/apps/${appId}/history?limit=0`, { headers: owner.headers })
        expect(badLimit.status).toBe(400)
        expect(badLimit.body.error.code).toBe("invalid_query")

        yield* Effect.flatMap(FakeAccounts, (accounts) => accounts.setUnavailable(false))
        yield* fake.setUnavailable(true)
        const down = yield* call("POST", `/v1/apps/${appId}/secret/rotate`, { headers: owner.headers })
        yield* fake.setUnavailable(false)
        expect(down.status).toBe(503)
        // Nothing changed: accounts still holds the digest of the secret rotated before.
        expect(Option.getOrThrow(yield* fake.app(appId)).app_secret_sha256).toBe(sha256Hex(rotated.body.app_secret))
        expect((yield* call("GET", `/v1/apps/${appId}/history`, { headers: owner.headers })).body.total).toBe(2)
      }))
  })
})
