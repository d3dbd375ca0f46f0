import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp, mintCode, REDIRECT_URI } from "./support/apps.ts"
import { createCarbon, insertSilicon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"
import { AccessTokens } from "../src/oauth/AccessTokens.ts"

interface App {
  readonly appId: string
  readonly secret: string
}

const call = (path: string, init?: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const form = (parameters: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(parameters).toString()
})
const basic = (app: App) => ({
  authorization: `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`
})
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")
const newVerifier = () => randomHex(64)

const exchange = (app: App, parameters: Record<string, string>) =>
  call("/v1/oauth/token", form({ grant_type: "authorization_code", redirect_uri: REDIRECT_URI, ...parameters }, basic(app)))
const refresh = (app: App, refreshToken: string) =>
  call("/v1/oauth/token", form({ grant_type: "refresh_token", refresh_token: refreshToken }, basic(app)))
const userinfo = (accessToken: string) => call("/v1/userinfo", { headers: { authorization: `Bearer ${accessToken}` } })
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString())
const introspect = (app: App, token: string) => call("/v1/oauth/introspect", form({ token }, basic(app)))

/** A Carbon, an app and a code for them with a PKCE S256 challenge; answers the verifier too. */
const codeFor = (app: App, options: { readonly scope?: string; readonly accountUuid?: string } = {}) =>
  Effect.gen(function*() {
    const accountUuid = options.accountUuid ?? (yield* createCarbon()).uuid
    const verifier = newVerifier()
    const code = yield* mintCode({
      appId: app.appId,
      accountUuid,
      codeChallenge: s256(verifier),
      codeChallengeMethod: "S256",
      ...(options.scope === undefined ? {} : { scope: options.scope })
    })
    return { code, verifier, accountUuid }
  })

const expectOAuthError = (answer: { status: number; body: any }, error: string) => {
  expect(answer.body).toEqual({ error, error_description: expect.any(String) })
  expect(answer.status).toBe(error === "invalid_client" ? 401 : 400)
}

layer(AccountsTest(), { excludeTestServices: true })("OAuth for apps: every refusal", (it) => {
  it.effect("a reused code is invalid_grant and revokes every token issued from it", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const { code, verifier } = yield* codeFor(app)
      const first = yield* exchange(app, { code, code_verifier: verifier })
      expect(first.status).toBe(200)
      expect((yield* userinfo(first.body.access_token)).status).toBe(200)
      expectOAuthError(yield* exchange(app, { code, code_verifier: verifier }), "invalid_grant")
      expect((yield* userinfo(first.body.access_token)).body.error.code).toBe("token_revoked")
      expectOAuthError(yield* refresh(app, first.body.refresh_token), "invalid_grant")
      expect((yield* introspect(app, first.body.access_token)).body).toEqual({ active: false })
    }))

  // Its codes' PKCE S256 rule: token-endpoint-rules.test.ts.
  it.effect("the client developer: its own audience, few grants", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const developer = (parameters: Record<string, string>) =>
        call("/v1/oauth/token", form({ client_id: "developer", redirect_uri: REDIRECT_URI, ...parameters }))
      const verifier = newVerifier()
      const code = yield* mintCode({
        appId: "developer",
        accountUuid: carbon.uuid,
        codeChallenge: s256(verifier),
        codeChallengeMethod: "S256"
      })
      const tokens = yield* developer({ grant_type: "authorization_code", code, code_verifier: verifier })
      expect(tokens.status).toBe(200)
      expect(tokens.body.membership_id).toBe(`developer:${carbon.uuid}`)
      expect(JSON.parse(Buffer.from(tokens.body.access_token.split(".")[1], "base64url").toString())).toMatchObject({
        aud: "developer",
        client_id: "developer"
      })
      expect((yield* userinfo(tokens.body.access_token)).body.error.code).toBe("token_wrong_audience")
      const refreshed = yield* developer({ grant_type: "refresh_token", refresh_token: tokens.body.refresh_token })
      expect(refreshed.status).toBe(200)
      expectOAuthError(yield* developer({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: "x" }), "unauthorized_client")
      expectOAuthError(yield* call("/v1/oauth/introspect", form({ client_id: "developer", token: refreshed.body.access_token })), "invalid_client")
      const revoked = yield* call("/v1/oauth/revoke", form({ client_id: "developer", token: refreshed.body.refresh_token }))
      expect(revoked.status).toBe(200)
      expectOAuthError(yield* developer({ grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token }), "invalid_grant")
    }))

  // The whole matrix of client authentication and grants per client: token-endpoint-rules.test.ts.
  it.effect("client authentication over HTTP: a refusal is 401 invalid_client and spends nothing; the secret may come in the body", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const other = yield* createApp()
      const { code, verifier } = yield* codeFor(app)
      const body = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI }
      const refused = yield* call("/v1/oauth/token", form(body, basic({ appId: app.appId, secret: other.secret })))
      expectOAuthError(refused, "invalid_client")
      expect(refused.headers.get("cache-control")).toBe("no-store")
      const ok = yield* call("/v1/oauth/token", form({ ...body, client_id: app.appId, client_secret: app.secret }))
      expect(ok.status).toBe(200)
      expect(ok.headers.get("cache-control")).toBe("no-store")
    }))

  it.effect("20 parallel exchanges of one code: exactly one succeeds, and the other uses revoke what it got", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const { code, verifier } = yield* codeFor(app)
      const answers = yield* Effect.all(
        Array.from({ length: 20 }, () => exchange(app, { code, code_verifier: verifier })),
        { concurrency: "unbounded" }
      )
      const won = answers.filter((answer) => answer.status === 200)
      expect(won).toHaveLength(1)
      expect(answers.filter((answer) => answer.body.error === "invalid_grant")).toHaveLength(19)
      // The code is spent and linked to its sign-in in one commit: a use that lost the race finds the sign-in.
      expect((yield* userinfo(won[0]!.body.access_token)).body.error.code).toBe("token_revoked")
      expectOAuthError(yield* refresh(app, won[0]!.body.refresh_token), "invalid_grant")
    }))

  it.effect("a refresh token is its client's: another client's use is invalid_grant and spends nothing; reuse revokes", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const other = yield* createApp()
      const { code, verifier } = yield* codeFor(app, { scope: "profile" })
      const tokens = (yield* exchange(app, { code, code_verifier: verifier })).body
      expectOAuthError(yield* refresh(other, tokens.refresh_token), "invalid_grant")
      expectOAuthError(
        yield* call("/v1/oauth/token", form({ grant_type: "refresh_token", client_id: "accounts", refresh_token: tokens.refresh_token })),
        "invalid_grant"
      )
      const rotated = yield* refresh(app, tokens.refresh_token)
      expect(rotated.status).toBe(200)
      expect(rotated.body).not.toHaveProperty("id_token")
      expect(rotated.body.scope).toBe("profile")
      expect(rotated.body.refresh_token_expires_at).toBe(tokens.refresh_token_expires_at)
      // A first-party refresh token is not an app's either.
      const firstParty = yield* signInDirectly((yield* createCarbon()).uuid)
      expectOAuthError(yield* refresh(app, firstParty.refreshToken), "invalid_grant")
      expectOAuthError(yield* refresh(app, tokens.refresh_token), "invalid_grant")
      expectOAuthError(yield* refresh(app, rotated.body.refresh_token), "invalid_grant")
    }))

  it.effect("revocation: an app's own tokens end their sign-in; another app's are answered 200 and left alone", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const other = yield* createApp()
      const mine = (yield* exchange(app, yield* Effect.map(codeFor(app), ({ code, verifier }) => ({ code, code_verifier: verifier })))).body
      const revokeByOther = yield* call("/v1/oauth/revoke", form({ token: mine.refresh_token }, basic(other)))
      expect(revokeByOther.status).toBe(200)
      const accessByOther = yield* call("/v1/oauth/revoke", form({ token: mine.access_token }, basic(other)))
      expect(accessByOther.status).toBe(200)
      expect((yield* userinfo(mine.access_token)).status).toBe(200)
      expect((yield* call("/v1/oauth/revoke", form({ token: mine.access_token }, basic(app)))).status).toBe(200)
      expect((yield* userinfo(mine.access_token)).body.error.code).toBe("token_revoked")
      expectOAuthError(yield* refresh(app, mine.refresh_token), "invalid_grant")
      expectOAuthError(yield* call("/v1/oauth/revoke", form({ token: "x" }, { authorization: "Basic bm9uZTp4" })), "invalid_client")
    }))

  it.effect("introspection: active only for the app's own live tokens; public clients may not introspect", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const other = yield* createApp()
      const tokens = (yield* exchange(app, yield* Effect.map(codeFor(app), ({ code, verifier }) => ({ code, code_verifier: verifier })))).body
      expect((yield* introspect(app, tokens.access_token)).body.active).toBe(true)
      for (const token of [tokens.access_token, tokens.refresh_token]) {
        expect((yield* introspect(other, token)).body).toEqual({ active: false })
      }
      const firstParty = yield* signInDirectly((yield* createCarbon()).uuid)
      for (const token of ["garbage", "sar_garbage", firstParty.accessToken, firstParty.refreshToken]) {
        const answer = yield* introspect(app, token)
        expect(answer.status).toBe(200)
        expect(answer.body).toEqual({ active: false })
        expect(answer.headers.get("cache-control")).toBe("no-store")
      }
      expectOAuthError(yield* call("/v1/oauth/introspect", form({ client_id: "accounts", token: tokens.access_token })), "invalid_client")
      expectOAuthError(yield* call("/v1/oauth/introspect", form({ client_id: app.appId, token: tokens.access_token })), "invalid_client")
    }))

  it.effect("userinfo refuses what is not a live app token, and apps that may no longer act for the account", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const carbon = yield* createCarbon()
      const anonymous = yield* call("/v1/userinfo")
      expect(anonymous.body.error.code).toBe("unauthenticated")
      expect(anonymous.headers.get("www-authenticate")).toBe("Bearer")
      expect((yield* call("/v1/userinfo", { headers: { authorization: "Basic abc" } })).body.error.code).toBe("invalid_authorization")
      expect((yield* userinfo("not.a.token")).body.error.code).toBe("invalid_token")
      const firstParty = yield* signInDirectly(carbon.uuid)
      const wrong = yield* userinfo(firstParty.accessToken)
      expect(wrong.status).toBe(401)
      expect(wrong.body.error.code).toBe("token_wrong_audience")
      expect(wrong.headers.get("cache-control")).toBe("no-store")
      expect(wrong.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token"`)

      const app = yield* createApp()
      const { code, verifier } = yield* codeFor(app, { accountUuid: carbon.uuid })
      const tokens = (yield* exchange(app, { code, code_verifier: verifier })).body
      const post = yield* call("/v1/userinfo", { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}` } })
      expect(post.status).toBe(200)
      expect(post.body.sub).toBe(carbon.uuid)
      yield* sql`UPDATE memberships SET status = 'access_removed' WHERE app_id = ${app.appId}`
      expect((yield* userinfo(tokens.access_token)).body.error.code).toBe("access_removed")
      yield* sql`DELETE FROM memberships WHERE app_id = ${app.appId}`
      expect((yield* userinfo(tokens.access_token)).body.error.code).toBe("membership_inactive")
      yield* sql`UPDATE apps SET status = 'disabled' WHERE app_id = ${app.appId}`
      const disabled = yield* userinfo(tokens.access_token)
      expect(disabled.status).toBe(401)
      expect(disabled.body.error.code).toBe("app_disabled")
    }))

  // Exchanges for an account whose access was removed, or that is gone, and an imported membership's claim:
  // token-endpoint-rules.test.ts.
  it.effect("a refresh after the account removed the app's access is refused, the token spent", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const app = yield* createApp()
      const imported = yield* codeFor(app)
      yield* sql`
        INSERT INTO memberships (app_id, account_uuid, status, created_at) VALUES (${app.appId}, ${imported.accountUuid}, 'imported', now())
      `
      const claimed = yield* exchange(app, { code: imported.code, code_verifier: imported.verifier })
      expect(claimed.status).toBe(200)
      expect((yield* userinfo(claimed.body.access_token)).status).toBe(200)

      // The rotation reads the app's view of the sign-in in its own statement: a refresh after the
      // account removed the app's access is refused, the token spent.
      const rotated = yield* refresh(app, claimed.body.refresh_token)
      expect(rotated.status).toBe(200)
      expect(rotated.body.account).toEqual(claimed.body.account)
      yield* sql`UPDATE memberships SET status = 'access_removed' WHERE account_uuid = ${imported.accountUuid}`
      const afterRemoval = yield* refresh(app, rotated.body.refresh_token)
      expectOAuthError(afterRemoval, "invalid_grant")
      expect(afterRemoval.body.error_description).toMatch(/no longer act/)
    }))

  it.effect("a Silicon as an app sees it: its custodian, never email or phone, whatever the scope", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const custodian = yield* createCarbon()
      const silicon = yield* insertSilicon
      yield* sql`
        INSERT INTO silicons (account_uuid, custodian_uuid, stk_hash, stk_rotated_at) VALUES (${silicon}, ${custodian.uuid}, 'x', now())
      `
      const app = yield* createApp()
      const { code, verifier } = yield* codeFor(app, { accountUuid: silicon, scope: "openid profile email phone timezone" })
      const tokens = yield* exchange(app, { code, code_verifier: verifier })
      expect(tokens.status).toBe(200)
      expect(tokens.body.account).toMatchObject({ kind: "silicon", custodian: { uuid: custodian.uuid, id: `c:${custodian.handle}` } })
      expect(tokens.body.account).not.toHaveProperty("email")
      expect(tokens.body.account).not.toHaveProperty("phone")
      const info = yield* userinfo(tokens.body.access_token)
      expect(info.body).toMatchObject({ sub: silicon, kind: "silicon", zoneinfo: "UTC", timezone: "UTC" })
      expect(info.body).not.toHaveProperty("email")
      expect(info.body).not.toHaveProperty("phone_number")
    }))

  // An expired code: token-endpoint-rules.test.ts.
  it.effect("an expired app access token is invalid_token and inactive", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const carbon = yield* createCarbon()
      const { code, verifier } = yield* codeFor(app, { accountUuid: carbon.uuid })
      const live = (yield* exchange(app, { code, code_verifier: verifier })).body
      const expired = yield* Effect.flatMap(AccessTokens, (tokens) =>
        tokens.issue({
          accountUuid: carbon.uuid,
          signinId: claimsOf(live.access_token).sid,
          clientId: app.appId,
          audience: app.appId,
          scope: "profile",
          now: new Date(Date.now() - 1_801_000)
        })).pipe(Effect.provide(AccessTokens.Default))
      expect((yield* userinfo(expired.token)).body.error.code).toBe("invalid_token")
      expect((yield* introspect(app, expired.token)).body).toEqual({ active: false })
    }))

  it.effect("a lost token answer: the same Idempotency-Key replays it instead of counting as a reuse", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const { code, verifier } = yield* codeFor(app)
      const parameters = { grant_type: "authorization_code", redirect_uri: REDIRECT_URI, code, code_verifier: verifier }
      const headers = { ...basic(app), "idempotency-key": `code-${code.slice(-12)}` }
      const original = yield* call("/v1/oauth/token", form(parameters, headers))
      const retry = yield* call("/v1/oauth/token", form(parameters, headers))
      expect(retry.status).toBe(200)
      expect(retry.headers.get("idempotent-replayed")).toBe("true")
      expect(retry.body).toEqual(original.body)
      expect((yield* userinfo(original.body.access_token)).status).toBe(200)
    }))

  it.effect("a client developer's token acts on its few account routes only; an app's token on none", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const verifier = newVerifier()
      const code = yield* mintCode({
        appId: "developer",
        accountUuid: carbon.uuid,
        codeChallenge: s256(verifier),
        codeChallengeMethod: "S256"
      })
      const developer = (yield* call(
        "/v1/oauth/token",
        form({ grant_type: "authorization_code", client_id: "developer", redirect_uri: REDIRECT_URI, code, code_verifier: verifier })
      )).body
      const bearer = (token: string, init: RequestInit = {}) => ({ ...init, headers: { authorization: `Bearer ${token}` } })
      for (const path of ["/v1/me", "/v1/session", "/v1/me/owned-apps"]) {
        expect((yield* call(path, bearer(developer.access_token))).status).toBe(200)
      }
      for (const [path, method] of [["/v1/me/sessions", "GET"], ["/v1/me", "PATCH"], ["/v1/me/emails", "GET"]] as const) {
        const refused = yield* call(path, bearer(developer.access_token, { method }))
        expect(refused.status).toBe(401)
        expect(refused.body.error.code).toBe("token_wrong_audience")
      }
      const app = yield* createApp()
      const appTokens = (yield* exchange(app, yield* Effect.map(codeFor(app), ({ code, verifier }) => ({ code, code_verifier: verifier })))).body
      expect((yield* call("/v1/me", bearer(appTokens.access_token))).body.error.code).toBe("token_wrong_audience")
    }))
})
