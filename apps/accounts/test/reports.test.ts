import { describe, expect, it, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer } from "effect"
import { accountsMigrations } from "../src/migrations.ts"
import { AccountsTest, AccountsUnderTest, accountsServerOn } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"
import { expectRateLimited, freshWindow, spendWindow } from "./support/rateLimits.ts"
import { createCarbon } from "./support/carbons.ts"
import { signInDirectly } from "./support/signIn.ts"

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetchAnswer(`${url}/v1/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  )

// Each case sends its own client address (X-Forwarded-For, trusted here) so that the 5 per hour stay out of the way.
layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("POST /v1/reports", (it) => {
  it.effect("accepts a report and refuses bad values field by field", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const ok = yield* post(url, { message: "The device page is blank", pr_url: "https://example.com/pr/1" })
      expect(ok.status).toBe(201)
      expect(ok.body).toEqual({
        report_id: expect.stringMatching(/^rep_/),
        status: "received",
        received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      })
      const bad = yield* post(url, { message: "", pr_url: "http://example.com", extra: 1 })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(["extra", "message", "pr_url"])
    }))

  it.effect("valid JSON that is not an object is 400 invalid_body (spec 1, Request format)", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      for (const body of ["[]", "\"a report\"", "42", "null", "[{\"message\":\"x\"}]"]) {
        const answer = yield* Effect.promise(() =>
          fetchAnswer(`${url}/v1/reports`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.30" },
            body
          })
        )
        expect([answer.status, answer.body.error.code]).toEqual([400, "invalid_body"])
      }
      // The OAuth endpoints answer it in RFC 6749's format.
      const oauth = yield* Effect.promise(() =>
        fetchAnswer(`${url}/v1/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" })
      )
      expect([oauth.status, oauth.body.error]).toEqual([400, "invalid_request"])
    }))

  it.effect("a signed-in report records the account; an anonymous one none; a bad bearer token is 401", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const sql = yield* SqlClient.SqlClient
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const from = { "x-forwarded-for": "198.51.100.7" }
      const signedIn = yield* post(url, { message: "signed in" }, { ...from, authorization: `Bearer ${accessToken}` })
      const anonymous = yield* post(url, { message: "anonymous" }, from)
      expect([signedIn.status, anonymous.status]).toEqual([201, 201])
      const rows = yield* sql<{ id: string; account_uuid: string | null }>`
        SELECT id, account_uuid FROM reports WHERE id IN (${signedIn.body.report_id}, ${anonymous.body.report_id})
      `.pipe(Effect.orDie)
      expect(Object.fromEntries(rows.map((row) => [row.id, row.account_uuid]))).toEqual({
        [signedIn.body.report_id]: carbon.uuid,
        [anonymous.body.report_id]: null
      })
      const badToken = yield* post(url, { message: "who?" }, { ...from, authorization: "Bearer not-a-token" })
      expect(badToken.status).toBe(401)
      expect(badToken.body.error.code).toBe("invalid_token")
      // A browser's stale session cookie is sent on its own: the report is taken anonymously.
      const staleCookie = yield* post(url, { message: "stale" }, { ...from, cookie: "sa_session=gone", origin: url })
      expect(staleCookie.status).toBe(201)
    }))

  describe("Idempotency-Key", () => {
    it.effect("the same key and body replays the stored answer; another body is 409 idempotency_key_reused", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const headers = { "idempotency-key": "report-42", "x-forwarded-for": "198.51.100.1" }
        const first = yield* post(url, { message: "first" }, headers)
        const again = yield* post(url, { message: "first" }, headers)
        expect(first.status).toBe(201)
        expect(again.status).toBe(201)
        expect(again.body).toEqual(first.body)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        const other = yield* post(url, { message: "second" }, headers)
        expect(other.status).toBe(409)
        expect(other.body.error.code).toBe("idempotency_key_reused")
      }))

    it.effect("a key outside 1 to 200 visible ASCII characters is 400 invalid_idempotency_key", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        for (const key of ["has space", "x".repeat(201), "ünïcode"]) {
          const res = yield* Effect.promise(() =>
            fetchAnswer(`${url}/v1/reports`, {
              method: "POST",
              headers: { "content-type": "application/json", "idempotency-key": encodeURIComponent(key) === key ? key : "bad key" },
              body: JSON.stringify({ message: "m" })
            })
          )
          expect(res.status).toBe(400)
          expect(res.body.error.code).toBe("invalid_idempotency_key")
        }
      }))

    it.effect("a failed request is stored too: its retry with the same key replays the refusal", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const headers = { "idempotency-key": "bad-report" }
        const first = yield* post(url, { message: "" }, headers)
        const again = yield* post(url, { message: "" }, headers)
        expect(first.status).toBe(422)
        expect(again.status).toBe(422)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
      }))
  })
})

const sendTelemetry = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetchAnswer(`${url}/v1/telemetry/events`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  )

const storedTelemetry = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ name: string; source: string | null; step: string | null; data: unknown }>`
      SELECT name, source, step, data FROM telemetry_events WHERE name = ${name} ORDER BY id
    `.pipe(Effect.orDie))

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("POST /v1/telemetry/events", (it) => {
  it.effect("a batch of up to 50 is stored and answered 202 with no body", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const events = Array.from({ length: 50 }, (_, index) => ({
        name: "signin.page_shown",
        source: "account-site",
        step: `choose_method/${index}`,
        data: { index, "ünïcode": "ok" },
        later_field: "ignored"
      }))
      const answer = yield* sendTelemetry(url, { events }, { "x-forwarded-for": "198.51.100.20" })
      expect(answer.status).toBe(202)
      expect(answer.body).toBeNull()
      const stored = yield* storedTelemetry("signin.page_shown")
      expect(stored).toHaveLength(50)
      expect(stored[7]).toEqual({ name: "signin.page_shown", source: "account-site", step: "choose_method/7", data: { index: 7, "ünïcode": "ok" } })
    }))

  it.effect("the limits of spec 1 are 422 validation_failed naming each field: 51 events, name, source, step, data", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const from = { "x-forwarded-for": "198.51.100.21" }
      const tooMany = yield* sendTelemetry(url, { events: Array.from({ length: 51 }, () => ({ name: "a" })) }, from)
      expect(tooMany.status).toBe(422)
      expect(Object.keys(tooMany.body.error.details.fields)).toEqual(["events"])
      const bad = yield* sendTelemetry(url, {
        events: [
          { name: "Has.Capitals" },
          { name: "x".repeat(65) },
          { name: "ok", source: "s".repeat(65), step: "s".repeat(201), data: { blob: "x".repeat(8192) } }
        ]
      }, from)
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.error.details.fields).sort()).toEqual([
        "events.0.name",
        "events.1.name",
        "events.2.data",
        "events.2.source",
        "events.2.step"
      ])
      // At the limits exactly: all accepted.
      const edge = yield* sendTelemetry(url, {
        events: [{ name: "x".repeat(64), source: "s".repeat(64), step: "s".repeat(200), data: { blob: "x".repeat(8180) } }]
      }, from)
      expect(edge.status).toBe(202)
    }))

  it.effect("X-Accounts-Telemetry: off stores nothing and still answers 202", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const answer = yield* sendTelemetry(url, { events: [{ name: "opted.out" }] }, {
        "x-forwarded-for": "198.51.100.22",
        "x-accounts-telemetry": "off"
      })
      expect(answer.status).toBe(202)
      expect(yield* storedTelemetry("opted.out")).toEqual([])
    }))

  it.effect("the 121st batch in a minute from one address is 429; another address is not counted with it", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      yield* freshWindow(60)
      const from = { "x-forwarded-for": "198.51.100.23" }
      expect((yield* sendTelemetry(url, { events: [{ name: "counted" }] }, from)).status).toBe(202)
      yield* spendWindow("telemetry:198.51.100.23", 60, 120)
      expectRateLimited(yield* sendTelemetry(url, { events: [{ name: "counted" }] }, from), "120 per minute per IP", 60)
      // Opting out does not skip the limit.
      expect((yield* sendTelemetry(url, { events: [{ name: "counted" }] }, { ...from, "x-accounts-telemetry": "off" })).status)
        .toBe(429)
      expect((yield* sendTelemetry(url, { events: [{ name: "counted" }] }, { "x-forwarded-for": "198.51.100.24" })).status)
        .toBe(202)
    }))
})

describe("rate limits across servers", () => {
  it.scoped("two servers on one database count one window: the sixth report from an address in an hour is 429", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      const start = Effect.map(
        Layer.build(accountsServerOn(database, { trustProxy: true })),
        Context.get(AccountsUnderTest)
      )
      const [a, b] = yield* Effect.all([start, start])
      expect(a.url).not.toBe(b.url)
      const from = { "x-forwarded-for": "10.0.0.1, 203.0.113.9" }
      const statuses: Array<number> = []
      for (const server of [a, b, a, b, a]) {
        statuses.push((yield* post(server.url, { message: "hello" }, from)).status)
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201])
      expectRateLimited(yield* post(b.url, { message: "hello" }, from), "5 per hour per IP", 3600)
      // The limit is per address: the right-most X-Forwarded-For entry, as the proxy appended it.
      const otherAddress = yield* post(a.url, { message: "hello" }, { "x-forwarded-for": "203.0.113.9, 203.0.113.10" })
      expect(otherAddress.status).toBe(201)
    }))
})
