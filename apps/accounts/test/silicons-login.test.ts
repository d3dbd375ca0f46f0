import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"
import { createCarbon } from "./support/carbons.ts"
import { expectRateLimited, freshWindow, spendWindow } from "./support/rateLimits.ts"
import { createSilicon } from "./support/silicons.ts"

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
    ))
const login = (body: unknown, ip = "198.51.100.1") => post("/v1/silicons/login", body, { "x-forwarded-for": ip })

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("Silicon STK sign-in", (it) => {
  it.effect("self-creation's time zone: the one given, else the caller's network's (offline lookup), else UTC", () =>
    Effect.gen(function*() {
      const custodian = yield* createCarbon()
      const create = (ip: string, extra: Record<string, string> = {}) =>
        post("/v1/silicons", {
          id: `tz${Math.random().toString(36).slice(2, 10)}`,
          display_name: "Where am I",
          custodian: `c:${custodian.handle}`,
          ...extra
        }, { "x-forwarded-for": ip })
      // 81.2.69.142 is a British address, 2.16.0.1 a French one (IP2Location LITE).
      const cases = [
        ["81.2.69.142", {}, "Europe/London"],
        ["2.16.0.1", {}, "Europe/Paris"],
        ["81.2.69.142", { timezone: "Asia/Tokyo" }, "Asia/Tokyo"],
        // A country spanning several zones tells none; private and documentation ranges neither.
        ["8.8.8.8", {}, "UTC"],
        ["10.1.2.3", {}, "UTC"],
        ["203.0.113.9", {}, "UTC"]
      ] as const
      for (const [ip, extra, expected] of cases) {
        const created = yield* create(ip, extra)
        expect(created.status).toBe(201)
        expect(created.body.silicon.timezone).toBe(expected)
      }
    }))

  it.effect("POST /v1/silicons: 10 successful and 60 attempts per hour per IP; 20 pending per custodian", () =>
    Effect.gen(function*() {
      const custodian = yield* createCarbon()
      const create = (ip: string, id = `lim${Math.random().toString(36).slice(2, 10)}`) =>
        post("/v1/silicons", { id, display_name: "Limited", custodian: `c:${custodian.handle}`, stk: "0123456789ab" }, {
          "x-forwarded-for": ip
        })
      yield* freshWindow(3600)
      // Successes: counted per address, given back when the creation fails.
      expect((yield* create("198.51.100.70")).status).toBe(201)
      yield* spendWindow("silicons_created:198.51.100.70", 3600, 10)
      expectRateLimited(yield* create("198.51.100.70"), "10 per hour per IP", 3600)
      // Attempts: every request counts, failed ones too.
      expect((yield* create("198.51.100.71", "!")).status).toBe(422)
      yield* spendWindow("silicons_create_attempts:198.51.100.71", 3600, 60)
      expectRateLimited(yield* create("198.51.100.71"), "60 per hour per IP", 3600)
      // Twenty self-created Silicons may wait for one custodian; the 21st is 409 custodian_request_pending.
      for (let index = 0; index < 19; index++) {
        expect((yield* create(`198.51.100.${80 + Math.floor(index / 9)}`)).status).toBe(201)
      }
      const waiting = yield* create("198.51.100.90")
      expect([waiting.status, waiting.body.error.code]).toEqual([409, "custodian_request_pending"])
    }))

  it.effect("an unknown id and a wrong STK get the same answer", () =>
    Effect.gen(function*() {
      const { id } = yield* createSilicon()
      const wrong = yield* login({ id, stk: "stk-000000000000" }, "198.51.100.2")
      const unknown = yield* login({ id: "si:nobody-has-this-id", stk: "stk-000000000000" }, "198.51.100.2")
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      expect(wrong.body).toEqual(unknown.body)
      expect(wrong.body.error.code).toBe("invalid_credentials")
      expect(wrong.headers.get("cache-control")).toBe("no-store")
    }))

  it.effect("ten wrong STKs in a row lock sign-in for 60 seconds, even for the right STK; an unknown id locks alike", () =>
    Effect.gen(function*() {
      const { id, stk } = yield* createSilicon()
      for (let attempt = 1; attempt <= 10; attempt++) {
        const answer = yield* login({ id, stk: `stk-${attempt.toString(16).padStart(12, "0")}` }, "198.51.100.3")
        expect(answer.body.error.code).toBe("invalid_credentials")
      }
      const locked = yield* login({ id, stk }, "198.51.100.3")
      expect(locked.status).toBe(423)
      expect(locked.body.error.code).toBe("login_locked")
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(60)
      expect(locked.body.error.details.retry_after_seconds).toBe(Number(locked.headers.get("retry-after")))

      for (let attempt = 1; attempt <= 10; attempt++) {
        yield* login({ id: "si:nobody-locks-me", stk: "stk-000000000000" }, "198.51.100.4")
      }
      const unknownLocked = yield* login({ id: "si:nobody-locks-me", stk: "stk-000000000000" }, "198.51.100.4")
      expect(unknownLocked.status).toBe(423)
      expect(unknownLocked.body.error.code).toBe("login_locked")
    }))

  it.effect("a right STK ends the streak", () =>
    Effect.gen(function*() {
      const { id, stk } = yield* createSilicon()
      for (let attempt = 1; attempt <= 9; attempt++) yield* login({ id, stk: "stk-111111111111" }, "198.51.100.5")
      expect((yield* login({ id, stk }, "198.51.100.5")).status).toBe(200)
      for (let attempt = 1; attempt <= 9; attempt++) yield* login({ id, stk: "stk-111111111111" }, "198.51.100.5")
      expect((yield* login({ id, stk }, "198.51.100.5")).status).toBe(200)
    }))

  it.effect("one form at a time; malformed ids and STKs are 422", () =>
    Effect.gen(function*() {
      const { id, stk } = yield* createSilicon()
      const both = yield* login({ id, stk, assertion: "a.b.c" }, "198.51.100.6")
      expect(both.status).toBe(422)
      expect(both.body.error.code).toBe("validation_failed")
      const half = yield* login({ id }, "198.51.100.6")
      expect(half.status).toBe(422)
      expect((yield* login({ id: "c:a-carbon", stk }, "198.51.100.6")).body.error.code).toBe("invalid_id")
      expect((yield* login({ id, stk: "not-hex" }, "198.51.100.6")).body.error.code).toBe("invalid_stk")
      expect((yield* login({ id, stk, extra: true }, "198.51.100.6")).body.error.code).toBe("validation_failed")
    }))

  it.effect("60 sign-ins per minute per IP, then 429 with Retry-After", () =>
    Effect.gen(function*() {
      // Malformed ids are refused after the limit is counted, without the cost of an STK check.
      const answers = yield* Effect.forEach(
        Array.from({ length: 61 }),
        () => login({ id: "not an id", stk: "stk-000000000000" }, "198.51.100.7"),
        { concurrency: 8 }
      )
      expect(answers.filter((answer) => answer.status === 422)).toHaveLength(60)
      const limited = answers.filter((answer) => answer.status === 429)
      expect(limited).toHaveLength(1)
      expect(limited[0]!.body.error.code).toBe("rate_limited")
      expect(limited[0]!.headers.get("retry-after")).not.toBeNull()
    }))
})
