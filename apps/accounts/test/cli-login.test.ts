import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as jose from "jose"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { messageAfter } from "@platform/testkit"
import { expectRateLimited, inOneWindow } from "./support/rateLimits.ts"

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
    ))

/** The code a message carries, once the delivery worker has sent it. */
const codeSentTo = (to: string, after: number) => Effect.map(messageAfter(to, after), (message) => message.code!)

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("terminal sign-in with a six-digit code", (it) => {
  it.effect("start sends a code; verify answers the first-party Token response; the token works", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon({ email: "ada@example.com" })
      const start = yield* post("/v1/cli/login/start", { email: "Ada@Example.com" }, { "x-forwarded-for": "192.0.2.1" })
      expect(start.status).toBe(200)
      expect(start.headers.get("cache-control")).toBe("no-store")
      expect(start.body).toEqual({
        challenge_id: expect.stringMatching(/^vch_/),
        destination: "a***@example.com",
        expires_at: expect.any(String)
      })
      const code = yield* codeSentTo("ada@example.com", 0)
      expect(code).toMatch(/^\d{6}$/)
      const label = "x".repeat(150)
      const verified = yield* post("/v1/cli/login/verify", { challenge_id: start.body.challenge_id, code, client_label: label })
      expect(verified.status).toBe(200)
      expect(verified.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        refresh_token: expect.stringMatching(/^sar_/),
        // Spec 1, Token response: membership_id <app_id>:<uuid>, the app being the first-party client.
        membership_id: `accounts:${carbon.uuid}`,
        account: { uuid: carbon.uuid, id: `c:${carbon.handle}` }
      })
      // An EdDSA JWT of 1800 s naming its key, for the account's uuid; the sign-in lasts 900 days.
      const header = jose.decodeProtectedHeader(verified.body.access_token)
      expect(header).toMatchObject({ alg: "EdDSA", typ: "at+jwt", kid: expect.any(String) })
      const claims = jose.decodeJwt(verified.body.access_token)
      expect(claims).toMatchObject({ sub: carbon.uuid, aud: "accounts" })
      expect(claims.exp! - claims.iat!).toBe(1800)
      const lifetimeDays = (Date.parse(verified.body.refresh_token_expires_at) - Date.now()) / 86_400_000
      expect(lifetimeDays).toBeGreaterThan(899.99)
      expect(lifetimeDays).toBeLessThanOrEqual(900)
      const { url } = yield* AccountsUnderTest
      const session = yield* Effect.promise(() =>
        fetchAnswer(`${url}/v1/session`, { headers: { authorization: `Bearer ${verified.body.access_token}` } })
      )
      expect(session.body).toMatchObject({ method: "cli_code", client_label: "x".repeat(100) })
      const reused = yield* post("/v1/cli/login/verify", { challenge_id: start.body.challenge_id, code })
      expect(reused.status).toBe(409)
      expect(reused.body.error.code).toBe("code_already_used")
    }))

  it.effect("the whole terminal sign-in: code, /v1/me, refresh; replaying the old refresh token revokes the new one", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon({ email: "lin@example.com", displayName: "Lin" })
      const start = yield* post("/v1/cli/login/start", { email: "lin@example.com" }, { "x-forwarded-for": "192.0.2.3" })
      const code = yield* codeSentTo("lin@example.com", 0)
      const tokens = yield* post("/v1/cli/login/verify", { challenge_id: start.body.challenge_id, code, client_label: "cli" })
      expect(tokens.status).toBe(200)
      const get = (path: string, accessToken: string) =>
        Effect.promise(() => fetchAnswer(`${url}${path}`, { headers: { authorization: `Bearer ${accessToken}` } }))
      const me = yield* get("/v1/me", tokens.body.access_token)
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ uuid: carbon.uuid, display_name: "Lin" })
      const refreshBody = (refreshToken: string) =>
        Effect.promise(() =>
          fetchAnswer(`${url}/v1/oauth/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshToken })
              .toString()
          })
        )
      const refreshed = yield* refreshBody(tokens.body.refresh_token)
      expect(refreshed.status).toBe(200)
      expect((yield* get("/v1/me", refreshed.body.access_token)).status).toBe(200)
      const replay = yield* refreshBody(tokens.body.refresh_token)
      expect(replay.body.error).toBe("invalid_grant")
      expect((yield* refreshBody(refreshed.body.refresh_token)).body.error).toBe("invalid_grant")
      expect((yield* get("/v1/me", refreshed.body.access_token)).body.error.code).toBe("token_revoked")
    }))

  it.effect("an address without an account gets the same answer; only a right code reveals it", () =>
    Effect.gen(function*() {
      const start = yield* post("/v1/cli/login/start", { email: "nobody@example.com" }, { "x-forwarded-for": "192.0.2.2" })
      expect(start.status).toBe(200)
      expect(Object.keys(start.body).sort()).toEqual(["challenge_id", "destination", "expires_at"])
      const code = yield* codeSentTo("nobody@example.com", 0)
      const wrong = yield* post("/v1/cli/login/verify", {
        challenge_id: start.body.challenge_id,
        code: code === "000000" ? "111111" : "000000"
      })
      expect(wrong.status).toBe(422)
      expect(wrong.body.error).toMatchObject({ code: "invalid_code", details: { remaining_attempts: 9 } })
      const right = yield* post("/v1/cli/login/verify", { challenge_id: start.body.challenge_id, code })
      expect(right.status).toBe(404)
      expect(right.body.error.code).toBe("account_not_found")
    }))

  it.effect("country turns a national phone number into E.164; without it, or invalid there, the phone is 422", () =>
    Effect.gen(function*() {
      const from = { "x-forwarded-for": "192.0.2.44" }
      const sent = yield* post("/v1/cli/login/start", { phone: "020 7946 0018", country: "gb" }, from)
      expect(sent.status).toBe(200)
      expect(yield* codeSentTo("+442079460018", 0)).toMatch(/^\d{6}$/)
      for (const body of [
        { phone: "020 7946 0018" },
        { phone: "020 7946 0018", country: "US" },
        { phone: "020 7946 0018", country: "ZZ" }
      ]) {
        const refused = yield* post("/v1/cli/login/start", body, from)
        expect(refused.status).toBe(422)
        expect(Object.keys(refused.body.error.details.fields)).toEqual(["phone"])
      }
      // A number in international form keeps its own country code whatever country says.
      expect((yield* post("/v1/cli/login/start", { phone: "+14155550100", country: "GB" }, from)).status).toBe(200)
      expect(yield* codeSentTo("+14155550100", 0)).toMatch(/^\d{6}$/)
    }))

  it.effect("bad bodies are refused field by field", () =>
    Effect.gen(function*() {
      const both = yield* post("/v1/cli/login/start", { email: "a@example.com", phone: "+447911123456" })
      expect(both.status).toBe(422)
      const neither = yield* post("/v1/cli/login/start", {})
      expect(neither.status).toBe(422)
      const badEmail = yield* post("/v1/cli/login/start", { email: "not-an-email" })
      expect(badEmail.status).toBe(422)
      expect(badEmail.body.error.details.fields).toHaveProperty("email")
      const badCode = yield* post("/v1/cli/login/verify", { challenge_id: "vch_x", code: "12ab" })
      expect(badCode.status).toBe(422)
      expect(badCode.body.error.details.fields).toHaveProperty("code")
      const unknown = yield* post("/v1/cli/login/verify", { challenge_id: "vch_unknown", code: "123456" })
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe("challenge_not_found")
    }))

  it.effect("POST /v1/cli/login/start is limited to 60 per 10 minutes per IP", () =>
    inOneWindow(600, (salt) =>
      Effect.gen(function*() {
        const from = { "x-forwarded-for": `198.51.100.${60 + salt}` }
        // Malformed addresses still count, and send nothing, so the start limit shows on its own.
        for (let i = 0; i < 60; i++) {
          expect((yield* post("/v1/cli/login/start", { email: `not-an-email-${i}` }, from)).status).toBe(422)
        }
        const refused = yield* post("/v1/cli/login/start", { email: `ok${salt}@example.com` }, from)
        expect(refused.status).toBe(429)
        expect(refused.body.error.message).toContain("POST /v1/cli/login/start allows 60 per 10 minutes per IP")
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      })))

  it.effect("codes from one network are limited: the 31st in 10 minutes is 429 with Retry-After", () =>
    inOneWindow(600, (salt) =>
      Effect.gen(function*() {
        const from = { "x-forwarded-for": `198.51.100.${77 + salt}` }
        for (let i = 0; i < 30; i++) {
          const res = yield* post("/v1/cli/login/start", { email: `n${i}.${salt}@example.com` }, from)
          expect(res.status).toBe(200)
        }
        const refused = yield* post("/v1/cli/login/start", { email: `n31.${salt}@example.com` }, from)
        expect(refused.status).toBe(429)
        expect(refused.body.error.code).toBe("rate_limited")
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      })))

  it.effect("codes to one address are limited, whatever the network: the 11th in 10 minutes is 429", () =>
    inOneWindow(600, (salt) =>
      Effect.gen(function*() {
        for (let i = 0; i < 10; i++) {
          const sent = yield* post("/v1/cli/login/start", { email: `one.address.${salt}@example.com` }, { "x-forwarded-for": `198.51.100.${100 + i}` })
          expect(sent.status).toBe(200)
        }
        const refused = yield* post("/v1/cli/login/start", { email: `One.Address.${salt}@example.com` }, { "x-forwarded-for": "198.51.100.120" })
        expectRateLimited(refused, "10 per 10 minutes per address", 600)
        // Another address from the same network is not counted with it.
        expect((yield* post("/v1/cli/login/start", { email: `other.address.${salt}@example.com` }, { "x-forwarded-for": "198.51.100.120" })).status)
          .toBe(200)
      })))
})
