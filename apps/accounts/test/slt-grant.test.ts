import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createApp, jsonCall, tokenRequest } from "./support/proofs.ts"
import { createSilicon } from "./support/silicons.ts"
import { signInDirectly } from "./support/signIn.ts"

const SLT_GRANT = "urn:accounts:params:oauth:grant-type:short-lived-token"

layer(AccountsTest(), { excludeTestServices: true })("short-lived tokens", (it) => {
  it.effect("a Silicon mints an SLT, the app exchanges it for its own Token response once, a second exchange fails", () =>
    Effect.gen(function*() {
      const { silicon } = yield* createSilicon()
      const { accessToken } = yield* signInDirectly(silicon.uuid)
      const app = yield* createApp()
      const minted = yield* jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${accessToken}`, { app_id: app.appId })
      expect(minted.status).toBe(201)
      expect(minted.body).toEqual({ slt: expect.stringMatching(/^slt_/), app_id: app.appId, scope: "openid profile", expires_at: expect.any(String) })
      const lifetime = Date.parse(minted.body.expires_at) - Date.now()
      expect(lifetime).toBeGreaterThan(100_000)
      expect(lifetime).toBeLessThanOrEqual(120_000)
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ token_hash: string }>`SELECT token_hash FROM short_lived_tokens WHERE app_id = ${app.appId}`
      expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)

      const exchanged = yield* tokenRequest(app, { grant_type: SLT_GRANT, slt: minted.body.slt })
      expect(exchanged.status).toBe(200)
      expect(exchanged.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        refresh_token: expect.stringMatching(/^sar_/),
        scope: "openid profile",
        id_token: expect.any(String),
        membership_id: `${app.appId}:${silicon.uuid}`,
        account: { uuid: silicon.uuid, kind: "silicon" }
      })
      const claims = JSON.parse(Buffer.from(exchanged.body.access_token.split(".")[1], "base64url").toString())
      expect(claims).toMatchObject({ aud: app.appId, client_id: app.appId, sub: silicon.uuid })
      const membership = yield* sql<{ status: string }>`
        SELECT status FROM memberships WHERE app_id = ${app.appId} AND account_uuid = ${silicon.uuid}
      `
      expect(membership).toEqual([{ status: "active" }])

      const again = yield* tokenRequest(app, { grant_type: SLT_GRANT, slt: minted.body.slt })
      expect(again.status).toBe(400)
      expect(again.body).toEqual({ error: "invalid_grant", error_description: "The short-lived token was used already." })
    }))

  it.effect("another app cannot exchange it (and spends it); unknown tokens and a missing slt are refused", () =>
    Effect.gen(function*() {
      const { silicon } = yield* createSilicon()
      const { accessToken } = yield* signInDirectly(silicon.uuid)
      const app = yield* createApp()
      const other = yield* createApp()
      const minted = yield* jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${accessToken}`, { app_id: app.appId })
      const wrongApp = yield* tokenRequest(other, { grant_type: SLT_GRANT, slt: minted.body.slt })
      expect(wrongApp.body).toEqual({ error: "invalid_grant", error_description: "The short-lived token was minted for another app." })
      const afterwards = yield* tokenRequest(app, { grant_type: SLT_GRANT, slt: minted.body.slt })
      expect(afterwards.body.error).toBe("invalid_grant")
      const unknown = yield* tokenRequest(app, { grant_type: SLT_GRANT, slt: "slt_nothing" })
      expect(unknown.body).toEqual({ error: "invalid_grant", error_description: "The short-lived token is not valid." })
      const missing = yield* tokenRequest(app, { grant_type: SLT_GRANT })
      expect(missing.body.error).toBe("invalid_request")
    }))

  it.effect("two exchanges at once: exactly one gets tokens", () =>
    Effect.gen(function*() {
      const { silicon } = yield* createSilicon()
      const { accessToken } = yield* signInDirectly(silicon.uuid)
      const app = yield* createApp()
      const minted = yield* jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${accessToken}`, { app_id: app.appId })
      const answers = yield* Effect.all(
        Array.from({ length: 4 }, () => tokenRequest(app, { grant_type: SLT_GRANT, slt: minted.body.slt })),
        { concurrency: "unbounded" }
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400])
    }))

  it.effect("the custodian's allow-list blocks other apps (403 app_not_allowed); null lifts it", () =>
    Effect.gen(function*() {
      const { custodian, silicon } = yield* createSilicon()
      const carbon = yield* signInDirectly(custodian.uuid)
      const silicon_ = yield* signInDirectly(silicon.uuid)
      const allowed = yield* createApp()
      const blocked = yield* createApp()
      const path = `/v1/me/silicons/${silicon.uuid}/allowed-apps`
      const initial = yield* jsonCall("GET", path, `Bearer ${carbon.accessToken}`)
      expect(initial.body).toEqual({ allowed_apps: null, updated_at: null })
      const set = yield* jsonCall("PUT", path, `Bearer ${carbon.accessToken}`, { allowed_apps: [allowed.appId, allowed.appId] })
      expect(set.status).toBe(200)
      expect(set.body).toEqual({ allowed_apps: [allowed.appId], updated_at: expect.any(String) })

      const mint = (appId: string) => jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${silicon_.accessToken}`, { app_id: appId })
      expect((yield* mint(allowed.appId)).status).toBe(201)
      const refused = yield* mint(blocked.appId)
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("app_not_allowed")

      yield* jsonCall("PUT", path, `Bearer ${carbon.accessToken}`, { allowed_apps: null })
      expect((yield* mint(blocked.appId)).status).toBe(201)

      // Not the caller's Silicon, or a Silicon calling: refused.
      const stranger = yield* createSilicon()
      const notMine = yield* jsonCall("GET", `/v1/me/silicons/${stranger.silicon.uuid}/allowed-apps`, `Bearer ${carbon.accessToken}`)
      expect(notMine.status).toBe(404)
      expect(notMine.body.error.code).toBe("silicon_not_found")
      const bySilicon = yield* jsonCall("GET", path, `Bearer ${silicon_.accessToken}`)
      expect(bySilicon.body.error.code).toBe("carbon_only")
    }))

  it.effect("a Carbon cannot mint; an unknown or first-party app is unknown_app", () =>
    Effect.gen(function*() {
      const { custodian, silicon } = yield* createSilicon()
      const carbon = yield* signInDirectly(custodian.uuid)
      const app = yield* createApp()
      const byCarbon = yield* jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${carbon.accessToken}`, { app_id: app.appId })
      expect(byCarbon.status).toBe(403)
      expect(byCarbon.body.error.code).toBe("silicon_only")
      const { accessToken } = yield* signInDirectly(silicon.uuid)
      for (const appId of ["nope", "accounts"]) {
        const unknown = yield* jsonCall("POST", "/v1/me/short-lived-tokens", `Bearer ${accessToken}`, { app_id: appId })
        expect(unknown.status).toBe(404)
        expect(unknown.body.error.code).toBe("unknown_app")
      }
    }))
})
