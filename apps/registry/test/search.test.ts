import { describe, expect, layer } from "@effect/vitest"
import type { CarbonIdentity } from "@platform/accounts-identity-api"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { insertApp, insertRelease } from "./support/searchFixtures.ts"
import { newCarbon, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

interface Cast {
  /** An author of weather (published) and draft-idea (a draft). */
  readonly ada: CarbonIdentity
  /** A Carbon with a verified email at acme.example, which the private acme-internal admits. */
  readonly bob: CarbonIdentity
  /** Named by the private ledger-private's account_ids. */
  readonly carol: CarbonIdentity
}
class SearchCast extends Context.Tag("test/SearchCast")<SearchCast, Cast>() {}

/** The catalogue every test of this file reads (only the last test adds to it, an app no other search sees). */
const Catalogue = Layer.effect(
  SearchCast,
  Effect.gen(function*() {
    const bob = newCarbon("Bob")
    const cast = { ada: newCarbon("Ada"), bob: { ...bob, verified_emails: ["bob@ACME.example"] }, carol: newCarbon("Carol") }
    const apps = [
      { app_id: "weather", name: "Weather", rating: 3.5, installs: 100, tags: ["forecast", "outdoors"], authors: [cast.ada.uuid], createdDay: 1, updatedDay: 9 },
      { app_id: "weather-pro", name: "Weather Pro", rating: 4.9, installs: 90_000, tags: ["forecast"], createdDay: 2, updatedDay: 3 },
      { app_id: "weatherly", name: "Weatherly Forecasts", rating: 4, installs: 5_000, tags: ["forecast"], createdDay: 3, updatedDay: 4 },
      { app_id: "my-weather-station", name: "My Weather Station", rating: 5, installs: 20, createdDay: 4, updatedDay: 5 },
      { app_id: "chess", name: "Chess Club", rating: null, installs: 7, createdDay: 5, updatedDay: 6 },
      { app_id: "acme-internal", name: "Acme Internal Tools", visibility: "private" as const, domains: ["acme.example"], createdDay: 6 },
      { app_id: "ledger-private", name: "Ledger", visibility: "private" as const, account_ids: [cast.carol.uuid], createdDay: 7 },
      { app_id: "draft-idea", name: "Draft Idea", status: "draft" as const, authors: [cast.ada.uuid], createdDay: 8 }
    ]
    for (const app of apps) yield* insertApp(app)
    yield* insertRelease({ app_id: "weather", version: "1.0.0", targets: ["linux-x64", "darwin-arm64"] })
    yield* insertRelease({ app_id: "weather-pro", version: "2.0.0", targets: ["linux-x64"], withdrawn: true })
    yield* insertRelease({ app_id: "weather-pro", version: "2.1.0", targets: ["windows-x64"], channel: "development" })
    yield* insertRelease({ app_id: "weatherly", version: "1.0.0", targets: ["windows-x64"] })
    return cast
  })
)

interface SearchBody {
  readonly items: ReadonlyArray<{ readonly app_id: string; readonly name: string; readonly access: unknown; readonly status: string }>
  readonly total: number
  readonly limit: number
  readonly offset: number
  readonly next_offset: number | null
  readonly sort: string
}

const search = (query: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/v1/apps${query === "" ? "" : `?${query}`}`, { headers })
      return { response, body: await response.json() as SearchBody & { error?: any } }
    }))

const ids = (body: SearchBody) => body.items.map((app) => app.app_id)

layer(Catalogue.pipe(Layer.provideMerge(RegistryTest())), { excludeTestServices: true })("GET /v1/apps (search)", (it) => {
  describe("ranking", () => {
    it.effect("an exact id ranks above a popular look-alike; then prefixes, then substrings, rating breaking ties", () =>
      Effect.gen(function*() {
        const { body, response } = yield* search("q=Weather")
        expect(response.status).toBe(200)
        expect(response.headers.get("apps-version")).toBe("2026-10-09")
        expect(response.headers.get("ratelimit-limit")).toBe("600")
        expect(ids(body)).toEqual(["weather", "weather-pro", "weatherly", "my-weather-station"])
        expect(body).toMatchObject({ total: 4, limit: 50, offset: 0, next_offset: null, sort: "relevance" })
      }))

    it.effect("an exact name ranks first as an exact id does", () =>
      Effect.gen(function*() {
        const { body } = yield* search("q=weatherly%20forecasts")
        // weather is close enough in trigrams to count as a typo, ranked after the exact name.
        expect(ids(body)).toEqual(["weatherly", "weather"])
        // A prefix of one id and a typo of the others (within two edits or similar in trigrams).
        const { body: prefixed } = yield* search("q=weatherl")
        expect(ids(prefixed)).toEqual(["weatherly", "my-weather-station", "weather-pro", "weather"])
      }))

    it.effect("a typo finds the app (trigram similarity or a few edits of the id)", () =>
      Effect.gen(function*() {
        const { body } = yield* search("q=weathr")
        expect(ids(body)).toContain("weather")
        // Every match is a typo here: rating alone orders them.
        expect(ids(body)).toEqual(["my-weather-station", "weather-pro", "weatherly", "weather"])
        const { body: chess } = yield* search("q=chesz")
        expect(ids(chess)).toEqual(["chess"])
        const { body: nothing } = yield* search("q=zzzzqqq")
        expect(nothing).toMatchObject({ items: [], total: 0, next_offset: null })
      }))

    it.effect("without q, relevance is rating (unrated last), then installs", () =>
      Effect.gen(function*() {
        const { body } = yield* search("")
        expect(ids(body)).toEqual(["my-weather-station", "weather-pro", "weatherly", "weather", "chess"])
      }))

    it.effect("LIKE wildcards in q are taken literally", () =>
      Effect.gen(function*() {
        const { body } = yield* search("q=%25_%25")
        expect(body.total).toBe(0)
      }))
  })

  describe("filters", () => {
    it.effect("tags: every one named is required", () =>
      Effect.gen(function*() {
        expect(ids((yield* search("tags=forecast")).body)).toEqual(["weather-pro", "weatherly", "weather"])
        expect(ids((yield* search("tags=forecast,%20outdoors")).body)).toEqual(["weather"])
        expect(ids((yield* search("tags=forecast,nothing")).body)).toEqual([])
      }))

    it.effect("target: apps with a production release, not withdrawn, that has a package for it", () =>
      Effect.gen(function*() {
        expect(ids((yield* search("target=linux-x64")).body)).toEqual(["weather"])
        expect(ids((yield* search("target=windows-x64")).body)).toEqual(["weatherly"])
        expect(ids((yield* search("target=darwin-x64")).body)).toEqual([])
      }))

    it.effect("private apps only to those they admit: a verified email's domain, or the accounts they name", () =>
      Effect.gen(function*() {
        const { ada, bob, carol } = yield* SearchCast
        expect(ids((yield* search("visibility=private")).body)).toEqual([])
        const asBob = (yield* signedIn(bob)).headers
        expect(ids((yield* search("visibility=private", asBob)).body)).toEqual(["acme-internal"])
        const asCarol = (yield* signedIn(carol)).headers
        expect(ids((yield* search("visibility=private", asCarol)).body)).toEqual(["ledger-private"])
        expect(ids((yield* search("visibility=private", (yield* signedIn(ada)).headers)).body)).toEqual([])
        const { body } = yield* search("q=acme", asBob)
        expect(body.items).toEqual([expect.objectContaining({ app_id: "acme-internal", access: null })])
        expect(ids((yield* search("q=acme")).body)).toEqual([])
      }))

    it.effect("mine: the caller's own apps, drafts included, with their access settings; a draft never otherwise", () =>
      Effect.gen(function*() {
        const { ada } = yield* SearchCast
        const { headers } = yield* signedIn(ada)
        const { body } = yield* search("mine=true&sort=name", headers)
        expect(ids(body)).toEqual(["draft-idea", "weather"])
        expect(body.items[0]).toMatchObject({ status: "draft", access: { visibility: "public", domains: [], account_ids: [] } })
        expect(ids((yield* search("q=draft", headers)).body)).toEqual([])
        expect(ids((yield* search("mine=false&q=draft", headers)).body)).toEqual([])
        const weather = (yield* search("q=weather", headers)).body.items[0]
        expect(weather).toMatchObject({ app_id: "weather", access: { visibility: "public" } })
      }))

    it.effect("mine without a bearer is 401", () =>
      Effect.gen(function*() {
        const { body, response } = yield* search("mine=true")
        expect(response.status).toBe(401)
        expect(body.error).toMatchObject({ code: "unauthenticated", details: null })
      }))
  })

  describe("sorting and pages", () => {
    it.effect("each sort orders as named", () =>
      Effect.gen(function*() {
        const order = (sort: string) => Effect.map(search(`q=weather&sort=${sort}`), ({ body }) => ids(body))
        expect(yield* order("rating")).toEqual(["my-weather-station", "weather-pro", "weatherly", "weather"])
        expect(yield* order("installs")).toEqual(["weather-pro", "weatherly", "weather", "my-weather-station"])
        expect(yield* order("name")).toEqual(["my-weather-station", "weather", "weather-pro", "weatherly"])
        expect(yield* order("updated")).toEqual(["weather", "my-weather-station", "weatherly", "weather-pro"])
        expect(yield* order("newest")).toEqual(["my-weather-station", "weatherly", "weather-pro", "weather"])
        expect((yield* search("sort=name")).body.sort).toBe("name")
      }))

    it.effect("pages carry next_offset until the last page, where it is null", () =>
      Effect.gen(function*() {
        const first = (yield* search("q=weather&limit=3")).body
        expect(first).toMatchObject({ total: 4, limit: 3, offset: 0, next_offset: 3 })
        expect(ids(first)).toEqual(["weather", "weather-pro", "weatherly"])
        const last = (yield* search(`q=weather&limit=3&offset=${first.next_offset}`)).body
        expect(last).toMatchObject({ total: 4, limit: 3, offset: 3, next_offset: null })
        expect(ids(last)).toEqual(["my-weather-station"])
        const beyond = (yield* search("q=weather&limit=3&offset=10")).body
        expect(beyond).toMatchObject({ items: [], total: 4, offset: 10, next_offset: null })
        expect((yield* search("q=weather&limit=2&offset=2")).body.next_offset).toBeNull()
      }))
  })

  describe("bad values", () => {
    it.effect("a bad value is 400 invalid_query naming the values taken", () =>
      Effect.gen(function*() {
        const refusal = (query: string) => Effect.map(search(query), ({ body, response }) => ({ status: response.status, error: body.error }))
        expect(yield* refusal("sort=popular")).toEqual({
          status: 400,
          error: {
            code: "invalid_query",
            message: "Query parameter sort must be one of relevance, rating, installs, name, updated, newest.",
            hint: "Use one of: relevance, rating, installs, name, updated, newest.",
            details: {
              parameter: "sort",
              problem: "must be one of relevance, rating, installs, name, updated, newest",
              accepted: ["relevance", "rating", "installs", "name", "updated", "newest"],
              minimum: null,
              maximum: null
            }
          }
        })
        expect((yield* refusal("target=amiga")).error.details.accepted).toEqual(["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"])
        expect((yield* refusal("visibility=secret")).error.details.accepted).toEqual(["public", "private"])
        expect((yield* refusal("mine=yes")).error.details.accepted).toEqual(["true", "false"])
        for (const limit of ["0", "101", "ten", "1.5"]) {
          expect(yield* refusal(`limit=${limit}`)).toMatchObject({
            status: 400,
            error: { code: "invalid_query", details: { parameter: "limit", minimum: 1, maximum: 100, accepted: null } }
          })
        }
        expect((yield* refusal("offset=-1")).error.details).toMatchObject({ parameter: "offset", minimum: 0, maximum: null })
        expect((yield* refusal(`q=${"a".repeat(101)}`)).error.details).toMatchObject({ parameter: "q" })
        expect((yield* refusal("tags=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u")).error.details).toMatchObject({ parameter: "tags" })
      }))
  })

  describe("answers kept per process", () => {
    // Runs last: it leaves its app a draft, which no other search sees.
    it.effect("a kept answer is never served once the catalogue changed: a new app, a rename, an unpublish show at once", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect((yield* search("q=zeppelin")).body.total).toBe(0)
        yield* insertApp({ app_id: "zeppelin-notes", name: "Zeppelin Notes", createdDay: 9 })
        expect(ids((yield* search("q=zeppelin")).body)).toEqual(["zeppelin-notes"])
        expect(ids((yield* search("q=zeppelin")).body)).toEqual(["zeppelin-notes"])
        yield* sql`update apps set name = 'Airship Notes' where app_id = 'zeppelin-notes'`.pipe(Effect.orDie)
        expect((yield* search("q=zeppelin")).body.items[0]).toMatchObject({ name: "Airship Notes" })
        yield* sql`update apps set status = 'draft' where app_id = 'zeppelin-notes'`.pipe(Effect.orDie)
        expect((yield* search("q=zeppelin")).body.total).toBe(0)
      }))
  })
})
