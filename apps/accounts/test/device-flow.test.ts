import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { authorize, bearer, call, decide, expireUserCode, form, lookup, poll } from "./support/device.ts"
import { expectRateLimited, freshWindow, spendWindow } from "./support/rateLimits.ts"
import { signInDirectly } from "./support/signIn.ts"

const USER_CODE = /^[BCDFGHJKMNPQRSTVWXZ]{4}-[BCDFGHJKMNPQRSTVWXZ]{4}$/

/** A signed-in Carbon's access token. */
const carbonToken = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const { accessToken } = yield* signInDirectly(carbon.uuid)
  return { carbon, accessToken }
})

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("device sign-in (RFC 8628)", (it) => {
  it.effect("authorize answers RFC 8628 §3.2, no-store; the user code is easy to type", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const res = yield* authorize()
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.body).toEqual({
        device_code: expect.stringMatching(/^sad_[A-Za-z0-9_-]{43}$/),
        user_code: expect.stringMatching(USER_CODE),
        verification_uri: `${url}/device`,
        verification_uri_complete: `${url}/device?user_code=${res.body.user_code}`,
        expires_in: 600,
        interval: 5
      })
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ device_code_hash: string }>`SELECT device_code_hash FROM device_codes`.pipe(Effect.orDie)
      expect(stored.map((row) => row.device_code_hash)).not.toContain(res.body.device_code)
    }))

  it.effect("the whole flow: pending, approved by a Carbon, tokens once, then invalid_grant", () =>
    Effect.gen(function*() {
      const { accessToken, carbon } = yield* carbonToken
      const started = yield* authorize({ client_label: "x".repeat(150), scope: "anything" })
      const { device_code, user_code } = started.body
      const pending = yield* poll(device_code)
      expect(pending.status).toBe(400)
      expect(pending.headers.get("cache-control")).toBe("no-store")
      expect(pending.body).toEqual({ error: "authorization_pending", error_description: expect.any(String) })

      const seen = yield* lookup(user_code, accessToken)
      expect(seen.status).toBe(200)
      expect(seen.body).toEqual({
        user_code,
        client_id: "accounts",
        client_label: "x".repeat(100),
        status: "pending",
        created_at: expect.any(String),
        expires_at: expect.any(String)
      })
      expect(Date.parse(seen.body.expires_at) - Date.parse(seen.body.created_at)).toBe(600_000)

      const approved = yield* decide(user_code, "approve", accessToken)
      expect(approved.status).toBe(200)
      expect(approved.body.status).toBe("approved")

      const tokens = yield* poll(device_code)
      expect(tokens.status).toBe(200)
      expect(tokens.headers.get("cache-control")).toBe("no-store")
      expect(tokens.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        refresh_token: expect.stringMatching(/^sar_/),
        account: { uuid: carbon.uuid, kind: "carbon", id: `c:${carbon.handle}` }
      })
      const session = yield* call("/v1/session", bearer(tokens.body.access_token))
      expect(session.status).toBe(200)
      expect(session.body).toMatchObject({ method: "device", client_id: "accounts", client_label: "x".repeat(100) })

      const again = yield* poll(device_code)
      expect(again.status).toBe(400)
      expect(again.body.error).toBe("invalid_grant")
      expect((yield* lookup(user_code, accessToken)).body.status).toBe("approved")
    }))

  it.effect("two concurrent polls of an approved code: exactly one gets tokens", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* carbonToken
      const { device_code, user_code } = (yield* authorize()).body
      yield* decide(user_code, "approve", accessToken)
      const answers = yield* Effect.all([poll(device_code), poll(device_code)], { concurrency: "unbounded" })
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400])
      expect(answers.find((answer) => answer.status === 400)?.body.error).toBe("invalid_grant")
    }))

  it.effect("a denied sign-in answers access_denied", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* carbonToken
      const { device_code, user_code } = (yield* authorize()).body
      const denied = yield* decide(user_code, "deny", accessToken)
      expect(denied.status).toBe(200)
      expect(denied.body.status).toBe("denied")
      const answer = yield* poll(device_code)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe("access_denied")
    }))

  it.effect("polling within the interval is slow_down, and each one adds 5 seconds to the interval", () =>
    Effect.gen(function*() {
      const { device_code, user_code } = (yield* authorize()).body
      expect((yield* poll(device_code)).body.error).toBe("authorization_pending")
      const fast = yield* poll(device_code)
      expect(fast.status).toBe(400)
      expect(fast.body.error).toBe("slow_down")
      expect(fast.body.error_description).toContain("10 seconds")
      expect((yield* poll(device_code)).body.error_description).toContain("15 seconds")
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ interval_seconds: number }>`
        SELECT interval_seconds FROM device_codes WHERE user_code = ${user_code.replace("-", "")}
      `.pipe(Effect.orDie)
      expect(rows[0]?.interval_seconds).toBe(15)
    }))

  it.effect("after 600 seconds: polls are expired_token (RFC 8628) and the user code is 410 device_code_expired", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* carbonToken
      const { device_code, user_code } = (yield* authorize()).body
      yield* expireUserCode(user_code)
      const answer = yield* poll(device_code)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe("expired_token")
      const seen = yield* lookup(user_code, accessToken)
      expect(seen.status).toBe(410)
      expect(seen.body.error.code).toBe("device_code_expired")
      for (const decision of ["approve", "deny"] as const) {
        const decided = yield* decide(user_code, decision, accessToken)
        expect([decided.status, decided.body.error.code]).toEqual([410, "device_code_expired"])
      }
    }))

  it.effect("the token endpoint refuses a missing or unknown device code and other clients", () =>
    Effect.gen(function*() {
      const missing = yield* call(
        "/v1/oauth/token",
        form({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "accounts" })
      )
      expect(missing.body.error).toBe("invalid_request")
      expect((yield* poll("sad_unknown")).body.error).toBe("invalid_grant")
      const { device_code } = (yield* authorize()).body
      // Spec 1: the client developer may use only authorization_code and refresh_token; other grants unauthorized_client.
      const developer = yield* call(
        "/v1/oauth/token",
        form({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "developer", device_code })
      )
      expect(developer.status).toBe(400)
      expect(developer.body.error).toBe("unauthorized_client")
      const otherClient = yield* call(
        "/v1/oauth/token",
        form({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "someapp", device_code })
      )
      expect(otherClient.status).toBe(401)
      expect(otherClient.body.error).toBe("invalid_client")
    }))

  it.effect("authorize takes a JSON object of strings; only the first-party public client may use it", () =>
    Effect.gen(function*() {
      const json = yield* call("/v1/device/authorize", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.20" },
        body: JSON.stringify({ client_id: "accounts", client_label: "laptop" })
      })
      expect(json.status).toBe(200)
      const noClient = yield* call("/v1/device/authorize", form({}, { "x-forwarded-for": "192.0.2.20" }))
      expect(noClient.body).toEqual({ error: "invalid_request", error_description: expect.any(String) })
      const other = yield* authorize({ client_id: "someapp" }, "192.0.2.20")
      expect(other.status).toBe(401)
      expect(other.body.error).toBe("invalid_client")
      const withSecret = yield* authorize({ client_secret: "s" }, "192.0.2.20")
      expect(withSecret.body.error).toBe("invalid_client")
      const basic = yield* call(
        "/v1/device/authorize",
        form({ client_id: "accounts" }, { authorization: "Basic YWNjb3VudHM6eA==", "x-forwarded-for": "192.0.2.20" })
      )
      expect(basic.body.error).toBe("invalid_client")
    }))

  it.effect("authorize allows 60 per 10 minutes per IP, then 429 rate_limited with Retry-After", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 60; i++) expect((yield* authorize({}, "198.51.100.60")).status).toBe(200)
      const refused = yield* authorize({}, "198.51.100.60")
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((yield* authorize({}, "198.51.100.61")).status).toBe(200)
    }))

  it.effect("authorize allows 600 per 10 minutes per app, from any address, then 429 rate_limited", () =>
    Effect.gen(function*() {
      yield* freshWindow(600)
      expect((yield* authorize({}, "198.51.100.62")).status).toBe(200)
      // 599 more from elsewhere, counted straight into the app's window.
      yield* spendWindow("device_authorize_app:accounts", 600, 600)
      expectRateLimited(yield* authorize({}, "198.51.100.63"), "600 per 10 minutes per app", 600)
      // Given back, so that the file's other cases keep their sign-ins.
      yield* spendWindow("device_authorize_app:accounts", 600, 1)
      expect((yield* authorize({}, "198.51.100.63")).status).toBe(200)
    }))
})
