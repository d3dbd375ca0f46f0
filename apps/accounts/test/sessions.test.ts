import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import { AccessTokens, FIRST_PARTY_CLIENT_ID } from "../src/oauth/AccessTokens.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...init.headers, authorization: `Bearer ${token}` }
})

layer(AccountsTest(), { excludeTestServices: true })("account authentication and sessions", (it) => {
  it.effect("GET /v1/session names the sign-in the bearer token belongs to", () =>
    Effect.gen(function*() {
      const { accessToken, signinId } = yield* signInDirectly("abc", { clientLabel: "laptop" })
      const res = yield* call("/v1/session", bearer(accessToken))
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: signinId, client_id: "accounts", client_label: "laptop", method: "cli_code", current: true })
    }))

  it.effect("missing, malformed and unverifiable credentials are 401, never cached", () =>
    Effect.gen(function*() {
      const missing = yield* call("/v1/session")
      expect(missing.status).toBe(401)
      expect(missing.body.error.code).toBe("account_auth_required")
      expect(missing.headers.get("cache-control")).toBe("no-store")
      const basic = yield* call("/v1/session", { headers: { authorization: "Basic YTpi" } })
      expect(basic.body.error.code).toBe("invalid_authorization")
      const empty = yield* call("/v1/session", { headers: { authorization: "Bearer " } })
      expect(empty.body.error.code).toBe("invalid_authorization")
      const garbage = yield* call("/v1/session", bearer("not.a.jwt"))
      expect(garbage.status).toBe(401)
      expect(garbage.body.error.code).toBe("invalid_token")
    }))

  it.effect("an expired access token is invalid_token", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* signInDirectly("abc", { at: new Date(Date.now() - 2 * 3600 * 1000) })
      const res = yield* call("/v1/session", bearer(accessToken))
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe("invalid_token")
    }))

  it.effect("an app's token is token_wrong_audience; an identity token is refused", () =>
    Effect.gen(function*() {
      const { signinId } = yield* signInDirectly("abc")
      const tokens = yield* Effect.provide(AccessTokens, AccessTokens.Default)
      const appToken = yield* tokens.issue({
        accountUuid: "abc",
        signinId,
        clientId: "some-app",
        audience: "some-app",
        scope: "profile",
        now: new Date()
      })
      const wrongAudience = yield* call("/v1/session", bearer(appToken.token))
      expect(wrongAudience.status).toBe(401)
      expect(wrongAudience.body.error.code).toBe("token_wrong_audience")

      const { url } = yield* AccountsUnderTest
      const keys = yield* SigningKeys
      const now = Math.floor(Date.now() / 1000)
      const identity = yield* keys.signJwt("RS256", {
        iss: url,
        sub: "abc",
        aud: FIRST_PARTY_CLIENT_ID,
        token_use: "identity",
        iat: now,
        exp: now + 300
      })
      const refused = yield* call("/v1/session", bearer(identity))
      expect(refused.status).toBe(401)
      expect(refused.body.error.code).toBe("identity_token_not_accepted")
    }))

  it.effect("the sessions list pages with limit and cursor; a foreign cursor is 400 invalid_cursor", () =>
    Effect.gen(function*() {
      const labels = ["p1", "p2", "p3"]
      const signins = []
      for (const [index, clientLabel] of labels.entries()) {
        signins.push(yield* signInDirectly("pager", { clientLabel, at: new Date(Date.now() - 1000 * (10 - index)) }))
      }
      const token = signins[2]!.accessToken
      const first = yield* call("/v1/me/sessions?limit=2", bearer(token))
      expect(first.body.items.map((item: { client_label: string }) => item.client_label)).toEqual(["p3", "p2"])
      expect(first.body.next_cursor).toEqual(expect.any(String))
      const second = yield* call(`/v1/me/sessions?limit=2&cursor=${first.body.next_cursor}`, bearer(token))
      expect(second.body.items.map((item: { client_label: string }) => item.client_label)).toEqual(["p1"])
      expect(second.body.next_cursor).toBeNull()
      const foreign = yield* call("/v1/me/sessions?cursor=abc", bearer(token))
      expect([foreign.status, foreign.body.error.code]).toEqual([400, "invalid_cursor"])
      const tooMany = yield* call("/v1/me/sessions?limit=201", bearer(token))
      expect([tooMany.status, tooMany.body.error.code]).toEqual([400, "invalid_query"])
    }))

  it.effect("sessions are listed newest first; revoking one stops its access token at once", () =>
    Effect.gen(function*() {
      const first = yield* signInDirectly("xyz", { clientLabel: "first" })
      const second = yield* signInDirectly("xyz", { clientLabel: "second" })
      const list = yield* call("/v1/me/sessions", bearer(second.accessToken))
      expect(list.status).toBe(200)
      expect(list.body.items.map((item: { client_label: string }) => item.client_label)).toEqual(["second", "first"])
      expect(list.body.items[0].current).toBe(true)
      expect(list.body.next_cursor).toBeNull()

      const revoke = yield* call(`/v1/me/sessions/${first.signinId}`, bearer(second.accessToken, { method: "DELETE" }))
      expect(revoke.status).toBe(204)
      const stopped = yield* call("/v1/session", bearer(first.accessToken))
      expect(stopped.status).toBe(401)
      expect(stopped.body.error.code).toBe("token_revoked")
      const again = yield* call(`/v1/me/sessions/${first.signinId}`, bearer(second.accessToken, { method: "DELETE" }))
      expect(again.status).toBe(404)
      expect(again.body.error.code).toBe("session_not_found")
      // Another account's sign-in is not visible either.
      const other = yield* signInDirectly("other")
      const foreign = yield* call(`/v1/me/sessions/${other.signinId}`, bearer(second.accessToken, { method: "DELETE" }))
      expect(foreign.status).toBe(404)
    }))

  it.effect("revoking all sign-ins stops every token of the account", () =>
    Effect.gen(function*() {
      const a = yield* signInDirectly("all")
      const b = yield* signInDirectly("all")
      const res = yield* call("/v1/me/sessions", bearer(a.accessToken, { method: "DELETE" }))
      expect(res.body).toEqual({ revoked: 2 })
      for (const token of [a.accessToken, b.accessToken]) {
        expect((yield* call("/v1/session", bearer(token))).body.error.code).toBe("token_revoked")
      }
    }))

  describe("the account site's session cookie", () => {
    const withCookie = (signinId: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const value = `cookie-${signinId}`
        yield* sql`update signins set session_cookie_hash = ${sha256Hex(value)} where id = ${signinId}`
        return `sa_session=${value}`
      })

    it.effect("authenticates reads, and state changes only from our own origin", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const { signinId } = yield* signInDirectly("cookie")
        const cookie = yield* withCookie(signinId)
        const read = yield* call("/v1/session", { headers: { cookie } })
        expect(read.status).toBe(200)
        expect(read.body.id).toBe(signinId)
        const noOrigin = yield* call("/v1/me/sessions", { method: "DELETE", headers: { cookie } })
        expect(noOrigin.status).toBe(403)
        expect(noOrigin.body.error.code).toBe("origin_not_allowed")
        const foreign = yield* call("/v1/me/sessions", { method: "DELETE", headers: { cookie, origin: "https://evil.example" } })
        expect(foreign.status).toBe(403)
        const ours = yield* call("/v1/me/sessions", { method: "DELETE", headers: { cookie, origin: url } })
        expect(ours.status).toBe(200)
        const ended = yield* call("/v1/session", { headers: { cookie } })
        expect(ended.status).toBe(401)
        expect(ended.body.error.code).toBe("token_revoked")
        const unknown = yield* call("/v1/session", { headers: { cookie: "sa_session=nothing-like-it" } })
        expect(unknown.body.error.code).toBe("session_expired")
      }))
  })
})
