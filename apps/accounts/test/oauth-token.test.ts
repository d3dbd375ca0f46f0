import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

const form = (parameters: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(parameters).toString()
})
const post = (path: string, init: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const refresh = (refreshToken: string, headers: Record<string, string> = {}) =>
  post("/v1/oauth/token", form({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshToken }, headers))
const session = (accessToken: string) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() => fetchAnswer(`${url}/v1/session`, { headers: { authorization: `Bearer ${accessToken}` } })))

layer(AccountsTest(), { excludeTestServices: true })("POST /v1/oauth/token and /v1/oauth/revoke (first-party)", (it) => {
  it.effect("a refresh rotates the token and answers the Token response, no-store", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const first = yield* signInDirectly(carbon.uuid)
      const res = yield* refresh(first.refreshToken)
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        refresh_token: expect.stringMatching(/^sar_/),
        scope: expect.any(String),
        account: { uuid: carbon.uuid, kind: "carbon", id: `c:${carbon.handle}` }
      })
      expect(res.body.refresh_token).not.toBe(first.refreshToken)
      expect((yield* session(res.body.access_token)).status).toBe(200)
      // 900 days from the sign-in, not extended by refreshing.
      const again = yield* refresh(res.body.refresh_token)
      expect(again.body.refresh_token_expires_at).toBe(res.body.refresh_token_expires_at)
    }))

  it.effect("a JSON body of strings works too; repeated or non-string parameters are invalid_request", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { refreshToken } = yield* signInDirectly(carbon.uuid)
      const json = yield* post("/v1/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshToken, extra: "ignored" })
      })
      expect(json.status).toBe(200)
      const repeated = yield* post("/v1/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=refresh_token&client_id=accounts&refresh_token=a&refresh_token=b"
      })
      expect(repeated.status).toBe(400)
      expect(repeated.body).toEqual({ error: "invalid_request", error_description: expect.any(String) })
      const nonString = yield* post("/v1/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "refresh_token", client_id: "accounts", refresh_token: 5 })
      })
      expect(nonString.body.error).toBe("invalid_request")
      const unknownGrant = yield* post("/v1/oauth/token", form({ grant_type: "password", client_id: "accounts" }))
      expect(unknownGrant.body.error).toBe("unsupported_grant_type")
      const otherClient = yield* post("/v1/oauth/token", form({ grant_type: "refresh_token", client_id: "nope", refresh_token: "x" }))
      expect(otherClient.status).toBe(401)
      expect(otherClient.body.error).toBe("invalid_client")
    }))

  it.effect("deep JSON, a JSON key sent twice, NUL in a value: RFC 6749 invalid_request, never the service envelope", () =>
    Effect.gen(function*() {
      const jsonPost = (body: string) => post("/v1/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body })
      const deep = yield* jsonPost("[".repeat(10_000) + "]".repeat(10_000))
      expect(deep.status).toBe(400)
      expect(deep.body).toEqual({ error: "invalid_request", error_description: expect.stringContaining("deeper than 64") })
      const twice = yield* jsonPost(`{"grant_type":"refresh_token","client_id":"accounts","refresh_token":"a","refresh_token":"b"}`)
      expect(twice.body).toEqual({ error: "invalid_request", error_description: "Parameter refresh_token is repeated." })
      const nul = yield* post("/v1/oauth/token", form({ grant_type: "refresh_token", client_id: "accounts", refresh_token: "a\u0000" }))
      expect(nul.status).toBe(400)
      expect(nul.body).toEqual({ error: "invalid_request", error_description: "Parameter refresh_token must not contain NUL (U+0000)." })
    }))

  it.effect("grant_type: unknown is unsupported_grant_type, another client's is unauthorized_client; a token exchange may omit the client", () =>
    Effect.gen(function*() {
      const unknown = yield* post("/v1/oauth/token", form({ grant_type: "password", client_id: "accounts" }))
      expect(unknown.status).toBe(400)
      expect(unknown.body).toEqual({ error: "unsupported_grant_type", error_description: "Unknown grant_type password." })
      const exchange = "urn:ietf:params:oauth:grant-type:token-exchange"
      const withoutClient = yield* post("/v1/oauth/token", form({ grant_type: exchange }))
      expect(withoutClient.status).toBe(400)
      expect(withoutClient.body).toEqual({ error: "invalid_request", error_description: "Parameter subject_token is missing." })
      const notThisClient = yield* post("/v1/oauth/token", form({ grant_type: "authorization_code", client_id: "accounts" }))
      expect(notThisClient.status).toBe(400)
      expect(notThisClient.body).toEqual({
        error: "unauthorized_client",
        error_description: "The client accounts may not use the grant authorization_code."
      })
    }))

  it.effect("a refresh token used twice revokes its whole sign-in", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { refreshToken } = yield* signInDirectly(carbon.uuid)
      const rotated = yield* refresh(refreshToken)
      expect(rotated.status).toBe(200)
      const replay = yield* refresh(refreshToken)
      expect(replay.status).toBe(400)
      expect(replay.body.error).toBe("invalid_grant")
      // Every token of that sign-in stops: the rotated refresh token and its access token.
      expect((yield* refresh(rotated.body.refresh_token)).body.error).toBe("invalid_grant")
      expect((yield* session(rotated.body.access_token)).body.error.code).toBe("token_revoked")
    }))

  it.effect("20 concurrent refreshes of one token: exactly one succeeds", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { refreshToken } = yield* signInDirectly(carbon.uuid)
      const answers = yield* Effect.all(Array.from({ length: 20 }, () => refresh(refreshToken)), { concurrency: "unbounded" })
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      expect(answers.filter((answer) => answer.status === 400 && answer.body.error === "invalid_grant")).toHaveLength(19)
    }))

  describe("a lost answer", () => {
    it.effect("an exact retry with the same Idempotency-Key gets the same answer instead of revoking", () =>
      Effect.gen(function*() {
        const carbon = yield* createCarbon()
        const { refreshToken } = yield* signInDirectly(carbon.uuid)
        const key = { "idempotency-key": `refresh-${refreshToken.slice(-8)}` }
        const original = yield* refresh(refreshToken, key)
        const retry = yield* refresh(refreshToken, key)
        expect(retry.status).toBe(200)
        expect(retry.headers.get("idempotent-replayed")).toBe("true")
        expect(retry.body).toEqual(original.body)
        expect((yield* session(original.body.access_token)).status).toBe(200)
        // Without the key the same replay is reuse.
        const reuse = yield* refresh(refreshToken)
        expect(reuse.body.error).toBe("invalid_grant")
        expect((yield* session(original.body.access_token)).body.error.code).toBe("token_revoked")
      }))
  })

  it.effect("revoking a refresh or access token ends its sign-in; unknown tokens answer 200", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const a = yield* signInDirectly(carbon.uuid)
      const revokeRefresh = yield* post("/v1/oauth/revoke", form({ token: a.refreshToken, client_id: "accounts" }))
      expect(revokeRefresh.status).toBe(200)
      expect((yield* session(a.accessToken)).body.error.code).toBe("token_revoked")
      const b = yield* signInDirectly(carbon.uuid)
      yield* post("/v1/oauth/revoke", form({ token: b.accessToken, token_type_hint: "access_token", client_id: "accounts" }))
      expect((yield* refresh(b.refreshToken)).body.error).toBe("invalid_grant")
      const unknown = yield* post("/v1/oauth/revoke", form({ token: "sar_nothing", client_id: "accounts" }))
      expect(unknown.status).toBe(200)
      const missing = yield* post("/v1/oauth/revoke", form({ client_id: "accounts" }))
      expect(missing.body.error).toBe("invalid_request")
    }))
})
