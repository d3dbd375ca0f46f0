import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { fixedWindowAt, rateLimitKeyDigest } from "@platform/rate-limit"
import { Clock, Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { expectRateLimited } from "./support/rateLimits.ts"
import {
  accountOfCode,
  authorizeQuery,
  browser,
  makeFlowApp,
  proveEmail,
  run,
  setSigninConfig,
  startFlow,
  verifyCode
} from "./support/flows.ts"

const flowCreationsKey = (address: string) => rateLimitKeyDigest(`flows_create:${address}`)

/** Spends an address's 300 flow creations in this minute and the next, so a minute ending mid-test changes nothing. */
const spendFlowCreations = (address: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    for (const window of [fixedWindowAt(now, 60), fixedWindowAt(now + 60_000, 60)]) {
      yield* sql`
        INSERT INTO rate_limit_windows (key_digest, window_seconds, window_start, window_end, count)
        VALUES (${flowCreationsKey(address)}, 60, ${new Date(window.startMillis)}, ${new Date(window.endMillis)}, 300)
      `
    }
  })

const flowCreationsCounted = (address: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ total: number }>`
      SELECT coalesce(sum(count), 0)::integer AS total FROM rate_limit_windows WHERE key_digest = ${flowCreationsKey(address)}
    `).pipe(Effect.map((rows) => rows[0]?.total))

const flowsOf = (appId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::integer AS n FROM flows WHERE app_id = ${appId}`)
    .pipe(Effect.map((rows) => rows[0]?.n))

// Proxy trusted: the rate-limit test counts its flows under its own X-Forwarded-For address, apart from the others.
layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("hosted flow moves", (it) => {
  it.effect("switch: the browser's account is offered; Not you drops it and another account signs in", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const first = yield* createCarbon({ email: "first.person@example.com", displayName: "First Person" })
      const second = yield* createCarbon({ email: "second.person@example.com", displayName: "Second Person" })
      const b = yield* browser
      const signedIn = yield* proveEmail(b, appId, "first.person@example.com")
      expect(signedIn).toMatchObject({ step: "complete", signed_in_as: { uuid: first.uuid } })
      expect(b.cookies.has("sa_session")).toBe(true)

      const offered = (yield* startFlow(b, appId)).body.flow
      expect(offered).toMatchObject({ step: "choose_method", signed_in_as: { uuid: first.uuid, display_name: "First Person" } })
      const at = (path: string) => `/v1/flows/${offered.id}${path}`

      const switched = yield* run(() => b.post(at("/switch")))
      expect(switched.status).toBe(200)
      expect(switched.headers.get("cache-control")).toBe("no-store")
      expect(switched.body.flow).toMatchObject({ id: offered.id, step: "choose_method", signed_in_as: null, challenge: null })
      expect((yield* run(() => b.get(at("")))).body.flow.signed_in_as).toBeNull()
      // The session cookie stays, but this flow no longer offers it.
      const continued = yield* run(() => b.post(at("/continue")))
      expect(continued.status).toBe(401)
      expect(continued.body.error.code).toBe("session_required")

      const secondEmail = "second.person@example.com"
      expect((yield* run(() => b.post(at("/code"), { channel: "email", destination: secondEmail }))).status).toBe(200)
      const done = yield* verifyCode(b, offered.id, secondEmail)
      expect(done.body.flow).toMatchObject({ step: "complete", signed_in_as: { uuid: second.uuid, display_name: "Second Person" } })
      expect(yield* accountOfCode(done.body.flow.redirect_to)).toBe(second.uuid)
    }))

  it.effect("switch at verify_code forgets the code sent: back at choose_method, verifying is invalid_step", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const flow = (yield* startFlow(b, appId)).body.flow
      const at = (path: string) => `/v1/flows/${flow.id}${path}`
      const sent = yield* run(() => b.post(at("/code"), { channel: "email", destination: "someone.else@example.com" }))
      expect(sent.body.flow).toMatchObject({ step: "verify_code", challenge: { channel: "email" } })
      const switched = yield* run(() => b.post(at("/switch")))
      expect(switched.body.flow).toMatchObject({ step: "choose_method", challenge: null, signed_in_as: null })
      const late = yield* verifyCode(b, flow.id, "someone.else@example.com")
      expect(late.status).toBe(409)
      expect(late.body.error).toMatchObject({ code: "invalid_step", details: { step: "choose_method" } })
    }))

  it.effect("an app that takes only its email domains refuses other addresses: code request, phone sign-up, continue", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["allowed_email_domains"], ["corp.example"])
      yield* setSigninConfig(appId, ["methods", "phone"], true)
      const b = yield* browser

      const flow = (yield* startFlow(b, appId)).body.flow
      const at = (path: string) => `/v1/flows/${flow.id}${path}`
      const outside = yield* run(() => b.post(at("/code"), { channel: "email", destination: "someone@other.example" }))
      expect(outside.status).toBe(403)
      expect(outside.body.error.code).toBe("email_domain_not_allowed")
      expect((yield* run(() => b.get(at("")))).body.flow).toMatchObject({ step: "choose_method", challenge: null })
      const inside = yield* run(() => b.post(at("/code"), { channel: "email", destination: "Someone@CORP.example" }))
      expect(inside.status).toBe(200)
      expect(inside.body.flow.step).toBe("verify_code")

      // A new phone brings no email of the domain: its sign-up is refused once the code is proven.
      const byPhone = (yield* startFlow(b, appId)).body.flow
      const phoneAt = (path: string) => `/v1/flows/${byPhone.id}${path}`
      const phoneSent = yield* run(() => b.post(phoneAt("/code"), { channel: "phone", destination: "+14155550123" }))
      expect(phoneSent.status).toBe(200)
      const phoneVerified = yield* verifyCode(b, byPhone.id, "+14155550123")
      expect(phoneVerified.status).toBe(403)
      expect(phoneVerified.body.error.code).toBe("email_domain_not_allowed")
      expect(b.cookies.has("sa_signup")).toBe(false)

      // Signed in elsewhere with an email of another domain: continuing as that account is refused too.
      const outsider = yield* createCarbon({ email: "outsider@other.example" })
      const open = yield* makeFlowApp()
      yield* proveEmail(b, open, "outsider@other.example")
      const offered = (yield* startFlow(b, appId)).body.flow
      expect(offered.signed_in_as).toMatchObject({ uuid: outsider.uuid })
      const refused = yield* run(() => b.post(`/v1/flows/${offered.id}/continue`))
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("email_domain_not_allowed")
    }))

  it.effect("POST /v1/flows: 300 a minute per IP; the 301st is 429 rate_limited with Retry-After; other addresses go on", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const from = { "x-forwarded-for": "198.51.100.1, 203.0.113.90" }
      // Fixed one-minute windows on the real clock: keep all 301 creations in one.
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 50_000) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute)))
      const statuses = yield* Effect.all(
        Array.from({ length: 300 }, () => Effect.map(startFlow(b, appId, from), (answer) => answer.status)),
        { concurrency: 10 }
      )
      expect(statuses.filter((status) => status === 201)).toHaveLength(300)
      expectRateLimited(yield* startFlow(b, appId, from), "300 per minute per IP", 60)
      // The right-most X-Forwarded-For entry is the address: another one is counted apart.
      expect((yield* startFlow(b, appId, { "x-forwarded-for": "203.0.113.90, 203.0.113.91" })).status).toBe(201)
    }))

  it.effect("GET /authorize?prompt=none counts against the same 300 a minute per IP; past it, no flow and temporarily_unavailable", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const silently = (address: string) =>
        run(() => b.get(`/authorize?${authorizeQuery(appId, { prompt: "none" })}`, { "x-forwarded-for": address }))

      // With room left, prompt=none makes its flow (and fails it: no session) and the creation is counted.
      const allowed = yield* silently("198.51.100.20")
      expect(new URL(allowed.headers.get("location") ?? "").searchParams.get("error")).toBe("login_required")
      expect(yield* flowCreationsCounted("198.51.100.20")).toBe(1)
      expect(yield* flowsOf(appId)).toBe(1)

      yield* spendFlowCreations("198.51.100.21")
      const refused = yield* silently("198.51.100.21")
      expect(refused.status).toBe(302)
      const location = new URL(refused.headers.get("location") ?? "")
      expect(location.searchParams.get("error")).toBe("temporarily_unavailable")
      expect(location.searchParams.get("error_description")).toContain("300 per minute per IP")
      expect(location.searchParams.get("state")).toBe("st&te=/ü")
      expect(location.searchParams.get("iss")).toBe(url)
      expect(yield* flowsOf(appId)).toBe(1)
      // The limit is one: POST /v1/flows from that address is refused too.
      expectRateLimited(yield* startFlow(b, appId, { "x-forwarded-for": "198.51.100.21" }), "300 per minute per IP", 60)
    }))
})
