import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon, insertSilicon } from "./support/carbons.ts"
import { authorize, call, decide, lookup, poll } from "./support/device.ts"
import { signInDirectly } from "./support/signIn.ts"

const carbonToken = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  return (yield* signInDirectly(carbon.uuid)).accessToken
})

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("deciding a device sign-in", (it) => {
  it.effect("the user code is read case-insensitively, with or without its dash", () =>
    Effect.gen(function*() {
      const accessToken = yield* carbonToken
      const { user_code } = (yield* authorize()).body
      for (const typed of [user_code.toLowerCase(), user_code.replace("-", ""), ` ${user_code.toLowerCase()} `]) {
        const seen = yield* lookup(typed, accessToken)
        expect(seen.status).toBe(200)
        expect(seen.body.user_code).toBe(user_code)
      }
      const approved = yield* decide(user_code.replace("-", "").toLowerCase(), "approve", accessToken)
      expect(approved.body).toMatchObject({ user_code, status: "approved" })
    }))

  it.effect("unknown and malformed codes are 404 device_code_not_found", () =>
    Effect.gen(function*() {
      const accessToken = yield* carbonToken
      for (const typed of ["BCDF-GHJK", "hello", "0OIL-1234", "authorize"]) {
        const seen = yield* lookup(typed, accessToken)
        expect(seen.status).toBe(404)
        expect(seen.body.error.code).toBe("device_code_not_found")
        expect((yield* decide(typed, "deny", accessToken)).body.error.code).toBe("device_code_not_found")
      }
    }))

  it.effect("a sign-in is decided once: a second decision is 409 device_code_decided", () =>
    Effect.gen(function*() {
      const first = yield* carbonToken
      const second = yield* carbonToken
      const denied = (yield* authorize()).body
      yield* decide(denied.user_code, "deny", first)
      const approveDenied = yield* decide(denied.user_code, "approve", second)
      expect(approveDenied.status).toBe(409)
      expect(approveDenied.body.error).toMatchObject({ code: "device_code_decided", details: { status: "denied" } })
      expect((yield* poll(denied.device_code)).body.error).toBe("access_denied")

      const approved = (yield* authorize()).body
      yield* decide(approved.user_code, "approve", first)
      const again = yield* decide(approved.user_code, "approve", first)
      expect(again.status).toBe(409)
      expect(again.body.error.details).toEqual({ status: "approved" })
      expect((yield* decide(approved.user_code, "deny", second)).status).toBe(409)
    }))

  it.effect("needs a signed-in Carbon: no credentials 401, a Silicon 403 carbon_only", () =>
    Effect.gen(function*() {
      const { user_code } = (yield* authorize()).body
      const anonymous = yield* call(`/v1/device/${user_code}`)
      expect(anonymous.status).toBe(401)
      expect(anonymous.body.error.code).toBe("account_auth_required")
      const silicon = yield* signInDirectly(yield* insertSilicon)
      for (const answer of [yield* lookup(user_code, silicon.accessToken), yield* decide(user_code, "approve", silicon.accessToken)]) {
        expect(answer.status).toBe(403)
        expect(answer.body.error.code).toBe("carbon_only")
      }
    }))

  describe("with the account site's session cookie", () => {
    it.effect("an approval must come from our own origin", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const carbon = yield* createCarbon()
        const { signinId } = yield* signInDirectly(carbon.uuid)
        const sql = yield* SqlClient.SqlClient
        const value = `cookie-${signinId}`
        yield* sql`UPDATE signins SET session_cookie_hash = ${sha256Hex(value)} WHERE id = ${signinId}`.pipe(Effect.orDie)
        const cookie = `sa_session=${value}`
        const { user_code } = (yield* authorize()).body
        expect((yield* call(`/v1/device/${user_code}`, { headers: { cookie } })).status).toBe(200)
        const foreign = yield* call(`/v1/device/${user_code}/approve`, {
          method: "POST",
          headers: { cookie, origin: "https://evil.example" }
        })
        expect(foreign.status).toBe(403)
        expect(foreign.body.error.code).toBe("origin_not_allowed")
        const ours = yield* call(`/v1/device/${user_code}/approve`, { method: "POST", headers: { cookie, origin: url } })
        expect(ours.status).toBe(200)
        expect(ours.body.status).toBe("approved")
      }))
  })

  it.effect("lookups, approvals and denials together: 60 per 10 minutes per Carbon", () =>
    Effect.gen(function*() {
      const accessToken = yield* carbonToken
      const { user_code } = (yield* authorize()).body
      for (let i = 0; i < 59; i++) expect((yield* lookup(user_code, accessToken)).status).toBe(200)
      expect((yield* decide(user_code, "deny", accessToken)).status).toBe(200)
      const refused = yield* lookup(user_code, accessToken)
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((yield* lookup(user_code, yield* carbonToken)).status).toBe(200)
    }))
})
