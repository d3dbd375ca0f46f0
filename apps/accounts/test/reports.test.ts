import { describe, expect, it, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer } from "effect"
import { accountsMigrations } from "../src/migrations.ts"
import { AccountsTest, AccountsUnderTest, accountsServerOn } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"
import { expectRateLimited } from "./support/rateLimits.ts"

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetchAnswer(`${url}/v1/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  )

layer(AccountsTest(), { excludeTestServices: true })("POST /v1/reports", (it) => {
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
