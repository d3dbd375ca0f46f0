import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { rateLimitKeyDigest } from "@platform/rate-limit"
import { Clock, Effect } from "effect"
import { DEVELOPER_APP_ID } from "../src/apps/AppId.ts"
import { AccessTokens } from "../src/oauth/AccessTokens.ts"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { appBasic, memberApp } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { expectRateLimited, freshWindow } from "./support/rateLimits.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

type App = { readonly appId: string; readonly secret: string }

const asApp = (app: App, path: string) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, { headers: appBasic(app) })))

/** A sign-in of the client developer's tools with these scopes: its access token. */
const developerToken = (accountUuid: string, scope: string) =>
  Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis)
    const signins = yield* SigninsRepo
    const tokens = yield* AccessTokens
    const { signin } = yield* signins.start({ accountUuid, clientId: DEVELOPER_APP_ID, clientLabel: null, method: "hosted", now })
    const issued = yield* tokens.issue({
      accountUuid,
      signinId: signin.id,
      clientId: DEVELOPER_APP_ID,
      audience: DEVELOPER_APP_ID,
      scope,
      now
    })
    return issued.token
  }).pipe(Effect.provide([SigninsRepo.Default, AccessTokens.Default]))

/** Waits for the next minute when the current one has under 10 seconds left, so a count fits in one window. */
const freshMinute = freshWindow(60)

layer(AccountsTest(), { excludeTestServices: true })("account lookups over HTTP", (it) => {
  it.effect("an app sees a member by uuid and by id through its membership's scopes", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon({ displayName: "Ada" })
      const withEmail = yield* memberApp(carbon.uuid, { scopes: ["profile", "email", "timezone"] })
      const profileOnly = yield* memberApp(carbon.uuid, { scopes: ["profile"] })

      const byUuid = yield* asApp(withEmail, `/v1/accounts/${carbon.uuid}`)
      expect(byUuid.status).toBe(200)
      expect(byUuid.body).toEqual({
        uuid: carbon.uuid,
        membership_id: `${withEmail.appId}:${carbon.uuid}`,
        kind: "carbon",
        id: `c:${carbon.handle}`,
        display_name: "Ada",
        pfp_url: `${url}/v1/photos/default/${carbon.uuid}`,
        updated_at: carbon.updated_at.toISOString(),
        version: 1,
        email: `${carbon.handle}@example.com`,
        email_verified: true,
        timezone: "UTC"
      })
      const byId = yield* asApp(withEmail, `/v1/accounts/by-id/C:${carbon.handle.toUpperCase()}`)
      expect(byId.body).toEqual(byUuid.body)

      const narrow = yield* asApp(profileOnly, `/v1/accounts/by-id/${encodeURIComponent(`c:${carbon.handle}`)}`)
      expect(narrow.status).toBe(200)
      expect(Object.keys(narrow.body).sort()).toEqual(
        ["display_name", "id", "kind", "membership_id", "pfp_url", "updated_at", "uuid", "version"]
      )
      expect(narrow.body.membership_id).toBe(`${profileOnly.appId}:${carbon.uuid}`)

      // A Silicon: its custodian, never an email.
      const { custodian, id, silicon } = yield* createSilicon()
      const siliconApp = yield* memberApp(silicon.uuid, { scopes: ["profile", "email"] })
      const seen = yield* asApp(siliconApp, `/v1/accounts/by-id/${id}`)
      expect(seen.body).toMatchObject({ uuid: silicon.uuid, kind: "silicon", custodian: { uuid: custodian.uuid, id: `c:${custodian.handle}` } })
      expect(seen.body).not.toHaveProperty("email")
    }))

  it.effect("an app without a live membership gets 404 account_not_found, as for an unknown account", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const stranger = yield* memberApp((yield* createCarbon()).uuid)
      const removed = yield* memberApp(carbon.uuid, { status: "access_removed" })
      const imported = yield* memberApp(carbon.uuid, { status: "imported" })
      for (const [app, path] of [
        [stranger, `/v1/accounts/${carbon.uuid}`],
        [stranger, `/v1/accounts/by-id/c:${carbon.handle}`],
        [removed, `/v1/accounts/${carbon.uuid}`],
        [imported, "/v1/accounts/zzzz"],
        [imported, "/v1/accounts/by-id/c:nobody-here"]
      ] as const) {
        const answer = yield* asApp(app, path)
        expect([answer.status, answer.body.error.code]).toEqual([404, "account_not_found"])
      }
      expect((yield* asApp(imported, `/v1/accounts/${carbon.uuid}`)).status).toBe(200)
      const deleted = yield* SqlClient.SqlClient
      yield* deleted`UPDATE accounts SET status = 'deleted' WHERE uuid = ${carbon.uuid}`.pipe(Effect.orDie)
      expect((yield* asApp(imported, `/v1/accounts/${carbon.uuid}`)).status).toBe(404)
    }))

  it.effect("a signed-in account sees another's public summary, with a first-party or a developer token", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const other = yield* createCarbon({ displayName: "Grace" })
      const me = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(me.uuid)
      const summary = {
        uuid: other.uuid,
        kind: "carbon",
        id: `c:${other.handle}`,
        display_name: "Grace",
        pfp_url: `${url}/v1/photos/default/${other.uuid}`,
        status: "active"
      }
      expect((yield* callWithBearer("GET", `/v1/accounts/${other.uuid}`, accessToken)).body).toEqual(summary)
      const developer = yield* developerToken(me.uuid, "openid profile")
      const byDeveloper = yield* callWithBearer("GET", `/v1/accounts/by-id/c:${other.handle}`, developer)
      expect([byDeveloper.status, byDeveloper.body]).toEqual([200, summary])
      const unauthenticated = yield* Effect.flatMap(AccountsUnderTest, ({ url }) =>
        Effect.promise(() => fetchAnswer(`${url}/v1/accounts/${other.uuid}`)))
      expect([unauthenticated.status, unauthenticated.body.error.code]).toEqual([401, "unauthenticated"])
    }))

  it.effect("the developer platform reads the caller's verified emails at GET /v1/me/emails with the email scope only", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const withEmail = yield* callWithBearer("GET", "/v1/me/emails", yield* developerToken(carbon.uuid, "openid profile email"))
      expect(withEmail.status).toBe(200)
      expect(withEmail.body.items).toEqual([
        expect.objectContaining({ address: `${carbon.handle}@example.com`, verified: true, primary: true })
      ])
      const without = yield* callWithBearer("GET", "/v1/me/emails", yield* developerToken(carbon.uuid, "openid profile"))
      expect([without.status, without.body.error.code]).toEqual([401, "token_wrong_audience"])
      // Reading is all: changing emails stays first-party.
      const adding = yield* callWithBearer("POST", "/v1/me/emails", yield* developerToken(carbon.uuid, "email"), { email: "x@example.com" })
      expect(adding.body.error.code).toBe("token_wrong_audience")
    }))

  it.effect("malformed uuids and ids are 400 invalid_uuid and invalid_id", () =>
    Effect.gen(function*() {
      const app = yield* memberApp((yield* createCarbon()).uuid)
      const badUuid = yield* asApp(app, "/v1/accounts/ab")
      expect([badUuid.status, badUuid.body.error.code]).toEqual([400, "invalid_uuid"])
      expect((yield* asApp(app, "/v1/accounts/a-b-c")).body.error.code).toBe("invalid_uuid")
      const badId = yield* asApp(app, "/v1/accounts/by-id/c:a!")
      expect([badId.status, badId.body.error]).toEqual([400, expect.objectContaining({ code: "invalid_id", details: { reason: "invalid" } })])
      const reserved = yield* asApp(app, "/v1/accounts/by-id/c:admin")
      expect([reserved.status, reserved.body.error.details]).toEqual([400, { reason: "reserved_word" }])
      expect((yield* asApp(app, "/v1/accounts/by-id/ada")).body.error.code).toBe("invalid_id")
    }))

  it.effect("600 lookups per minute per app across both routes; another app counts apart", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const app = yield* memberApp(carbon.uuid)
      const other = yield* memberApp(carbon.uuid)
      yield* freshMinute
      expect((yield* asApp(app, `/v1/accounts/${carbon.uuid}`)).status).toBe(200)
      // 598 more lookups, counted straight into the window the first one opened.
      const sql = yield* SqlClient.SqlClient
      const counted = yield* sql`
        UPDATE rate_limit_windows SET count = 599
        WHERE key_digest = ${rateLimitKeyDigest(`account_lookups:app:${app.appId}`)} AND window_seconds = 60
        RETURNING 1
      `.pipe(Effect.orDie)
      expect(counted).toHaveLength(1)
      expect((yield* asApp(app, `/v1/accounts/by-id/c:${carbon.handle}`)).status).toBe(200)
      expectRateLimited(yield* asApp(app, `/v1/accounts/${carbon.uuid}`), "600 per minute per app or account", 60)
      expectRateLimited(yield* asApp(app, `/v1/accounts/by-id/c:${carbon.handle}`), "600 per minute per app or account", 60)
      expect((yield* asApp(other, `/v1/accounts/${carbon.uuid}`)).status).toBe(200)
    }))

  it.effect("an account's lookups are counted per account", () =>
    Effect.gen(function*() {
      const me = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(me.uuid)
      yield* freshMinute
      expect((yield* callWithBearer("GET", `/v1/accounts/${me.uuid}`, accessToken)).status).toBe(200)
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE rate_limit_windows SET count = 600
        WHERE key_digest = ${rateLimitKeyDigest(`account_lookups:account:${me.uuid}`)} AND window_seconds = 60
      `.pipe(Effect.orDie)
      expectRateLimited(yield* callWithBearer("GET", `/v1/accounts/by-id/c:${me.handle}`, accessToken), "600 per minute per app or account", 60)
      const developer = yield* developerToken(me.uuid, "profile")
      expect((yield* callWithBearer("GET", `/v1/accounts/${me.uuid}`, developer)).status).toBe(429)
    }))
})
