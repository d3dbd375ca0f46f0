import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect, Option, Redacted } from "effect"
import { createFakeApp } from "../src/apps/FakeApps.ts"
import { AppsRepo } from "../src/apps/AppsRepo.ts"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon, insertSilicon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { createSilicon } from "./support/silicons.ts"
import { signInDirectly } from "./support/signIn.ts"

const INTERNAL_TOKEN = "internal-token-for-tests"

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const basic = (appId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(appId)}:${encodeURIComponent(secret)}`).toString("base64")}`
})
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const sync = (appId: string, body: unknown, token = INTERNAL_TOKEN) =>
  call(`/v1/internal/apps/${appId}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

let counter = 0
const appIdFor = (stem: string) => `${stem}-${Date.now().toString(36)}${counter++}`

/** A fake app owned by a new Carbon, with the owner's session. */
const ownedApp = Effect.gen(function*() {
  const owner = yield* createCarbon()
  const { accessToken } = yield* signInDirectly(owner.uuid)
  const created = yield* createFakeApp({
    appId: appIdFor("app"),
    name: "Test App",
    redirectUris: ["https://app.example.com/callback"],
    owner: Option.some(`c:${owner.handle}`),
    scopeFields: ["email"]
  }).pipe(Effect.provide([AppsRepo.Default, AccountsRepo.Default]))
  return { owner, token: accessToken, appId: created.app.app_id, secret: created.secret }
})

layer(AccountsTest({ internalToken: Option.some(Redacted.make(INTERNAL_TOKEN)) }), { excludeTestServices: true })("apps", (it) => {
  it.effect("the App record, for the app's Basic credentials and for its authors; never its secrets", () =>
    Effect.gen(function*() {
      const { appId, owner, secret, token } = yield* ownedApp
      const asApp = yield* call(`/v1/apps/${appId}`, { headers: basic(appId, secret) })
      expect(asApp.status).toBe(200)
      expect(asApp.body).toMatchObject({
        app_id: appId,
        source: "fake",
        status: "active",
        owner: { uuid: owner.uuid, id: `c:${owner.handle}` },
        config_version: 1,
        webhook: { url: null, secret_set: false },
        stats: { users: 0, active_last_30d: 0, imported_unclaimed: 0 }
      })
      expect(asApp.body.signin_config).toMatchObject({ redirect_uris: ["https://app.example.com/callback"], required_fields: ["email"] })
      expect(JSON.stringify(asApp.body)).not.toContain(secret)
      const asAuthor = yield* call(`/v1/apps/${appId}`, { headers: bearer(token) })
      expect(asAuthor.body).toEqual(asApp.body)
    }))

  it.effect("wrong credentials, another app's credentials, strangers and unknown apps are refused by name", () =>
    Effect.gen(function*() {
      const { appId, secret } = yield* ownedApp
      const other = yield* ownedApp
      const wrong = yield* call(`/v1/apps/${appId}`, { headers: basic(appId, `${secret}x`) })
      const unknown = yield* call(`/v1/apps/${appId}`, { headers: basic("no-such-app", secret) })
      expect(wrong.status).toBe(401)
      expect(wrong.body).toEqual(unknown.body)
      expect(wrong.body.error.code).toBe("invalid_app_credentials")
      expect(wrong.headers.get("cache-control")).toBe("no-store")
      const mismatch = yield* call(`/v1/apps/${appId}`, { headers: basic(other.appId, other.secret) })
      expect(mismatch.body.error.code).toBe("app_mismatch")
      const stranger = yield* call(`/v1/apps/${appId}`, { headers: bearer(other.token) })
      expect(stranger.status).toBe(403)
      expect(stranger.body.error.code).toBe("not_app_owner")
      expect((yield* call(`/v1/apps/no-such-app`, { headers: bearer(other.token) })).body.error.code).toBe("unknown_app")
      expect((yield* call(`/v1/apps/${appId}`)).body.error.code).toBe("account_auth_required")
    }))

  it.effect("the public page data: CORS *, no-cache, enabled methods in order; 404 and 403", () =>
    Effect.gen(function*() {
      const { appId } = yield* ownedApp
      const page = yield* call(`/v1/apps/${appId}/public`)
      expect(page.status).toBe(200)
      expect(page.headers.get("access-control-allow-origin")).toBe("*")
      expect(page.headers.get("cache-control")).toBe("no-cache")
      expect(page.body).toMatchObject({ app_id: appId, name: "Test App", methods: ["email"], allowed_origins: [] })
      expect(page.body).not.toHaveProperty("redirect_uris")
      expect((yield* call(`/v1/apps/no-such-app/public`)).body.error.code).toBe("unknown_app")
    }))

  it.effect("owned apps: newest first, paged, Carbon only", () =>
    Effect.gen(function*() {
      const { appId, owner, token } = yield* ownedApp
      const second = yield* createFakeApp({
        appId: appIdFor("second"),
        name: "Second",
        redirectUris: [],
        owner: Option.some(`c:${owner.handle}`),
        scopeFields: []
      }).pipe(Effect.provide([AppsRepo.Default, AccountsRepo.Default]))
      const first = yield* call("/v1/me/owned-apps?limit=1", { headers: bearer(token) })
      expect(first.body.items).toEqual([expect.objectContaining({ app_id: second.app.app_id, source: "fake", users: 0 })])
      const rest = yield* call(`/v1/me/owned-apps?limit=1&cursor=${first.body.next_cursor}`, { headers: bearer(token) })
      expect(rest.body).toMatchObject({ items: [{ app_id: appId }], next_cursor: null })
      const { silicon } = yield* createSilicon()
      const { accessToken: siliconToken } = yield* signInDirectly(silicon.uuid)
      const asSilicon = yield* call("/v1/me/owned-apps", { headers: bearer(siliconToken) })
      expect(asSilicon.status).toBe(403)
      expect(asSilicon.body.error.code).toBe("carbon_only")
    }))

  it.effect("stats: users active or imported whose account is not deleted, active in the last 30 days, imported unclaimed", () =>
    Effect.gen(function*() {
      const { appId, token } = yield* ownedApp
      const sql = yield* SqlClient.SqlClient
      const day = 24 * 60 * 60 * 1000
      const at = (daysAgo: number | null) => daysAgo === null ? null : new Date(Date.now() - daysAgo * day)
      const member = (status: string, lastSigninDaysAgo: number | null, accountStatus: "active" | "deleted" = "active") =>
        Effect.gen(function*() {
          const account = yield* createCarbon()
          if (accountStatus === "deleted") yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${account.uuid}`
          yield* sql`
            INSERT INTO memberships (app_id, account_uuid, status, created_at, last_signin_at)
            VALUES (${appId}, ${account.uuid}, ${status}, now(), ${at(lastSigninDaysAgo)})
          `
        })
      yield* member("active", 1) // user, active in the last 30 days
      yield* member("active", 40) // user, not recently active
      yield* member("active", null) // user, never signed in
      yield* member("imported", null) // user, imported unclaimed
      yield* member("access_removed", 2) // not a user
      yield* member("active", 40, "deleted") // a deleted account is not a user
      const record = yield* call(`/v1/apps/${appId}`, { headers: bearer(token) })
      expect(record.body.stats).toEqual({ users: 4, active_last_30d: 1, imported_unclaimed: 1 })
      const owned = yield* call("/v1/me/owned-apps", { headers: bearer(token) })
      expect(owned.body.items).toEqual([expect.objectContaining({ app_id: appId, users: 4 })])
    }))

  it.effect("signin-config patches: merge, no-change, expected_version, null reset, history", () =>
    Effect.gen(function*() {
      const { appId, secret, token } = yield* ownedApp
      const patch = (body: unknown, headers: Record<string, string> = bearer(token)) =>
        call(`/v1/apps/${appId}/signin-config`, {
          method: "PATCH",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      const titled = yield* patch({ copy: { title: "Welcome back" }, branding: { radius: 12 } })
      expect(titled.status).toBe(200)
      expect(titled.body.config_version).toBe(2)
      expect(titled.body.signin_config.copy.title).toBe("Welcome back")
      expect(titled.body.signin_config.branding).toMatchObject({ radius: 12, logo_height: 40 })
      expect(titled.body.signin_config.redirect_uris).toEqual(["https://app.example.com/callback"])
      const again = yield* patch({ copy: { title: "Welcome back" } }, basic(appId, secret))
      expect(again.body.config_version).toBe(2)
      const stale = yield* patch({ expected_version: 1, copy: { subtitle: "Hi" } })
      expect(stale.status).toBe(409)
      expect(stale.body.error).toMatchObject({ code: "config_version_conflict", details: { config_version: 2 } })
      const reset = yield* patch({ expected_version: 2, copy: null, redirect_uris: ["https://app.example.com/cb2"] })
      expect(reset.body.config_version).toBe(3)
      expect(reset.body.signin_config.copy.title).toBeNull()
      expect(reset.body.signin_config.redirect_uris).toEqual(["https://app.example.com/cb2"])
      const sql = yield* SqlClient.SqlClient
      const history = yield* sql<{ version: number }>`SELECT version FROM app_config_versions WHERE app_id = ${appId} ORDER BY version`
      expect(history.map((row) => row.version)).toEqual([1, 2, 3])
    }))

  it.effect("signin-config refusals are by field; idp secrets are write-only; the body limit is 512 KB", () =>
    Effect.gen(function*() {
      const { appId, token } = yield* ownedApp
      const patch = (body: unknown) =>
        call(`/v1/apps/${appId}/signin-config`, {
          method: "PATCH",
          headers: { ...bearer(token), "content-type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body)
        })
      const invalid = yield* patch({ methods: { email: false }, branding: { light: { text: "#eeeeee" } } })
      expect(invalid.status).toBe(422)
      expect(Object.keys(invalid.body.error.details.fields)).toEqual(expect.arrayContaining(["methods", "branding.light.text"]))
      expect((yield* patch({ surprise: true })).body.error.code).toBe("validation_failed")
      const fraction = yield* patch({ branding: { radius: 4.5 } })
      expect(fraction.status).toBe(422)
      expect(fraction.body.error.details.fields).toMatchObject({ "branding.radius": "must be a whole number of px from 0 to 40" })
      const byo = yield* patch({ methods: { idp_a: true }, idp_a: { mode: "byo", client_id: "client-123", client_secret: "very-secret-value" } })
      expect(byo.status).toBe(200)
      expect(byo.body.signin_config.idp_a).toMatchObject({ mode: "byo", client_id: "client-123", client_secret_set: true })
      expect(JSON.stringify(byo.body)).not.toContain("very-secret-value")
      const missingSecret = yield* patch({ idp_a: { client_secret: null } })
      expect(missingSecret.status).toBe(422)
      expect(missingSecret.body.error.details.fields).toHaveProperty("idp_a.client_secret")
      const tooBig = yield* patch(JSON.stringify({ copy: { title: "x".repeat(600 * 1024) } }))
      expect(tooBig.status).toBe(413)
      expect(tooBig.body.error.details.limit_bytes).toBe(512 * 1024)
    }))

  it.effect("registry sync: created, then updated; secret by digest; co-authors replaced; once disabled a wrong secret is still 401, the owner still manages it and its public page is 403", () =>
    Effect.gen(function*() {
      const owner = yield* createCarbon()
      const coauthor = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(coauthor.uuid)
      const appId = appIdFor("reg")
      const secret = "sas_registry-issued-secret"
      const created = yield* sync(appId, {
        name: "Registry App",
        owner_uuid: owner.uuid,
        coauthor_uuids: [coauthor.uuid, coauthor.uuid, owner.uuid],
        status: "active",
        app_secret_sha256: sha256Hex(secret),
        homepage_url: "https://registry-app.example.com"
      })
      expect(created.status).toBe(200)
      expect(created.body).toMatchObject({ created: true, app: { app_id: appId, source: "registry_app", config_version: 1 } })
      expect((yield* call(`/v1/apps/${appId}`, { headers: basic(appId, secret) })).status).toBe(200)
      expect((yield* call(`/v1/apps/${appId}`, { headers: bearer(accessToken) })).status).toBe(200)
      // Co-authors are a set: a repeated uuid (and the owner's) is one author, not a 500.
      const sql = yield* SqlClient.SqlClient
      const authors = yield* sql<{ account_uuid: string; role: string }>`
        SELECT account_uuid, role FROM app_authors WHERE app_id = ${appId} ORDER BY role DESC`
      expect(authors.map((row) => [row.account_uuid, row.role])).toEqual([[owner.uuid, "owner"], [coauthor.uuid, "coauthor"]])
      const resynced = yield* sync(appId, { name: "Registry App", owner_uuid: owner.uuid, coauthor_uuids: [coauthor.uuid, coauthor.uuid], status: "active" })
      expect(resynced.status).toBe(200)
      const disabled = yield* sync(appId, { name: "Registry App 2", owner_uuid: owner.uuid, status: "disabled" })
      expect(disabled.body).toMatchObject({ created: false, app: { name: "Registry App 2", status: "disabled" } })
      const ownCredentials = yield* call(`/v1/apps/${appId}`, { headers: basic(appId, "sas_wrong") })
      expect(ownCredentials.body.error.code).toBe("invalid_app_credentials")
      // The co-author was dropped by the sync; the owner still manages the disabled app.
      expect((yield* call(`/v1/apps/${appId}`, { headers: bearer(accessToken) })).body.error.code).toBe("not_app_owner")
      const { accessToken: ownerToken } = yield* signInDirectly(owner.uuid)
      expect((yield* call(`/v1/apps/${appId}`, { headers: bearer(ownerToken) })).body.status).toBe("disabled")
      expect((yield* call(`/v1/apps/${appId}/public`)).body.error.code).toBe("app_disabled")
    }))

  it.effect("apps create (the operator's fake apps): a taken app id is 409 app_id_taken; a malformed one is 422 on app_id", () =>
    Effect.gen(function*() {
      const { appId } = yield* ownedApp
      const create = (id: string) =>
        Effect.flip(createFakeApp({
          appId: id,
          name: "Again",
          redirectUris: ["https://app.example.com/callback"],
          owner: Option.none(),
          scopeFields: []
        }).pipe(Effect.provide([AppsRepo.Default, AccountsRepo.Default])))
      expect(yield* create(appId)).toMatchObject({ code: "app_id_taken", status: 409 })
      const malformed = yield* create("No Spaces!")
      expect(malformed).toMatchObject({ code: "validation_failed", status: 422 })
      expect(malformed.details).toMatchObject({ fields: { app_id: expect.any(String) } })
    }))

  it.effect("a disabled app's right credentials get 403 app_disabled", () =>
    Effect.gen(function*() {
      const owner = yield* createCarbon()
      const appId = appIdFor("off")
      const secret = "sas_off-secret"
      yield* sync(appId, { name: "Off", owner_uuid: owner.uuid, status: "disabled", app_secret_sha256: sha256Hex(secret) })
      const answer = yield* call(`/v1/apps/${appId}`, { headers: basic(appId, secret) })
      expect(answer.status).toBe(403)
      expect(answer.body.error.code).toBe("app_disabled")
    }))

  it.effect("registry sync refuses bad bodies, unknown owners, first-party ids and wrong tokens", () =>
    Effect.gen(function*() {
      const owner = yield* createCarbon()
      const bad = yield* sync(appIdFor("bad"), { name: "", owner_uuid: "zzz", status: "active", homepage_url: "http://x.example" })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(["homepage_url", "name", "owner_uuid"])
      // Authors are checked in one read and reported by index: a Silicon, an unknown uuid, text that is no uuid, a deleted Carbon.
      const coauthor = yield* createCarbon()
      const deleted = yield* createCarbon()
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${deleted.uuid}`
      const silicon = yield* insertSilicon
      const authors = yield* sync(appIdFor("authors"), {
        name: "Authors",
        owner_uuid: owner.uuid,
        coauthor_uuids: [coauthor.uuid, silicon, "zzzzzzzz", "not a uuid!", deleted.uuid, coauthor.uuid],
        status: "active"
      })
      expect(authors.status).toBe(422)
      const notCarbon = "is not an active Carbon's uuid"
      expect(authors.body.error.details.fields).toEqual({
        "coauthor_uuids.1": notCarbon,
        "coauthor_uuids.2": notCarbon,
        "coauthor_uuids.3": notCarbon,
        "coauthor_uuids.4": notCarbon
      })
      const firstParty = yield* sync("accounts", { name: "Mine", owner_uuid: owner.uuid, status: "active" })
      expect(firstParty.status).toBe(409)
      expect(firstParty.body.error.code).toBe("app_source_conflict")
      expect((yield* sync(appIdFor("t"), {}, "wrong")).body.error.code).toBe("invalid_internal_token")
      const missing = yield* call(`/v1/internal/apps/${appIdFor("m")}`, { method: "PUT" })
      expect(missing.status).toBe(401)
      expect(missing.body.error.code).toBe("internal_token_required")
    }))
})

layer(AccountsTest(), { excludeTestServices: true })("internal routes without a configured token", (it) => {
  it.effect("answer 403 internal_api_disabled", () =>
    Effect.gen(function*() {
      const answer = yield* sync("any-app", { name: "X", owner_uuid: "abc", status: "active" })
      expect(answer.status).toBe(403)
      expect(answer.body.error.code).toBe("internal_api_disabled")
    }))
})
