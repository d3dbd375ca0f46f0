import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Effect, Layer } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { reserveHandle } from "./support/accountsRepo.ts"
import { AccountsUnderTest, accountsServerOn } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"

// One database for the server and the repository the tests create accounts with.
const database = TestDatabase.layer(accountsMigrations)
const ServerAndRepo = Layer.merge(
  accountsServerOn(database, { trustProxy: true }),
  AccountsRepo.Default.pipe(Layer.provideMerge(database))
)

/** GET /v1/ids/available with the query as given, from client address `from`. */
const check = (query: string, from: string) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() => fetchAnswer(`${url}/v1/ids/available?${query}`, { headers: { "x-forwarded-for": from } })))

const createCarbon = (handle: string) =>
  Effect.flatMap(AccountsRepo, (accounts) =>
    accounts.createCarbon({ id: `c:${handle}`, displayName: handle, email: `${handle}@example.com` }))

layer(ServerAndRepo)("GET /v1/ids/available", (it) => {
  it.effect("a free id is available, read case-insensitively", () =>
    Effect.gen(function*() {
      const res = yield* check("id=c:Fresh_Name-1", "198.51.100.1")
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ id: "c:fresh_name-1", available: true })
    }))

  it.effect("a taken id is unavailable with reason id_taken and free suggestions", () =>
    Effect.gen(function*() {
      yield* createCarbon("marie")
      const res = yield* check("id=C:MARIE", "198.51.100.2")
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        id: "c:marie",
        available: false,
        reason: "id_taken",
        suggestions: expect.any(Array)
      })
      const suggestions: Array<string> = res.body.suggestions
      expect(suggestions.length).toBeGreaterThan(0)
      expect(suggestions.length).toBeLessThanOrEqual(3)
      for (const suggestion of suggestions) {
        expect(suggestion).toMatch(/^c:marie[a-z0-9_-]{1,4}$/)
        const free = yield* check(`id=${encodeURIComponent(suggestion)}`, "198.51.100.2")
        expect(free.body).toEqual({ id: suggestion, available: true })
      }
    }))

  it.effect("a handle held by a Carbon is taken for a Silicon too", () =>
    Effect.gen(function*() {
      yield* createCarbon("tesla")
      const res = yield* check("id=si:tesla", "198.51.100.3")
      expect(res.body).toMatchObject({ id: "si:tesla", available: false, reason: "id_taken" })
      expect(res.body.suggestions.every((id: string) => id.startsWith("si:"))).toBe(true)
    }))

  it.effect("a reserved id is unavailable with reason id_reserved and its end", () =>
    Effect.gen(function*() {
      const owner = yield* createCarbon("renamed")
      const until = new Date(Date.now() + 10 * 86_400_000)
      yield* reserveHandle("formerly", owner.uuid, until)
      const res = yield* check("id=c:formerly", "198.51.100.4")
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        id: "c:formerly",
        available: false,
        reason: "id_reserved",
        reserved_until: until.toISOString(),
        suggestions: expect.any(Array)
      })
    }))

  it.effect("a bare handle takes the kind of for (default carbon); a prefix contradicting for is 400 invalid_query", () =>
    Effect.gen(function*() {
      const from = "198.51.100.5"
      expect((yield* check("id=sam", from)).body).toEqual({ id: "c:sam", available: true })
      expect((yield* check("id=sam&for=silicon", from)).body).toEqual({ id: "si:sam", available: true })
      expect((yield* check("id=si:sam&for=silicon", from)).body).toEqual({ id: "si:sam", available: true })
      const contradiction = yield* check("id=c:sam&for=silicon", from)
      expect(contradiction.status).toBe(400)
      expect(contradiction.body.error).toMatchObject({ code: "invalid_query", details: { parameter: "for" } })
      const unknownKind = yield* check("id=sam&for=robot", from)
      expect(unknownKind.status).toBe(400)
      expect(unknownKind.body.error).toMatchObject({ code: "invalid_query", details: { parameter: "for" } })
      const missing = yield* check("for=carbon", from)
      expect(missing.status).toBe(400)
      expect(missing.body.error).toMatchObject({ code: "invalid_query", details: { parameter: "id" } })
    }))

  it.effect("a malformed id is 422 invalid_id (reason invalid); a reserved word, reason reserved_word", () =>
    Effect.gen(function*() {
      const from = "198.51.100.6"
      for (const id of ["c:ab", "c:has space", `c:${"x".repeat(31)}`, "c:dot.ted", "x:abc", ""]) {
        const res = yield* check(`id=${encodeURIComponent(id)}`, from)
        expect(res.status).toBe(422)
        expect(res.body.error).toMatchObject({ code: "invalid_id", details: { reason: "invalid" } })
      }
      for (const id of ["c:admin", "C:Support", "si:accounts", "carbons"]) {
        const res = yield* check(`id=${encodeURIComponent(id)}`, from)
        expect(res.status).toBe(422)
        expect(res.body.error).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      }
    }))

  it.effect("allows 120 checks per minute per IP; the 121st is 429 rate_limited; other addresses go on", () =>
    Effect.gen(function*() {
      const from = "203.0.113.77"
      // Fixed one-minute windows: should the server run on the real clock, keep all 121 checks in one.
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 55_000) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute)))
      const statuses = yield* Effect.all(
        Array.from({ length: 120 }, (_, n) => Effect.map(check(`id=c:probe${n}`, from), (res) => res.status)),
        { concurrency: 10 }
      )
      expect(statuses.every((status) => status === 200)).toBe(true)
      const refused = yield* check("id=c:probe", from)
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(refused.body.error.message).toContain("120 per minute per IP")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((yield* check("id=c:probe", "203.0.113.78")).status).toBe(200)
    }))
})
