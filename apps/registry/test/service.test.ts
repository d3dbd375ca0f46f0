import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestIssuer } from "./support/issuer.ts"
import { newCarbon, newSilicon, registryClient, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) => Effect.promise(() => fetch(`${url}${path}`, { headers })))

const json = (response: Response) => Effect.promise(() => response.json() as Promise<any>)

layer(RegistryTest(), { excludeTestServices: true })("the registry's conventions over HTTP", (it) => {
  describe("health and versions", () => {
    it.effect("GET /health names the service and its version, with the API version used", () =>
      Effect.gen(function*() {
        const response = yield* get("/health")
        expect(response.status).toBe(200)
        expect(response.headers.get("apps-version")).toBe("2026-10-09")
        expect(yield* json(response)).toEqual({ status: "ok", service: "registry", version: "0.1.2" })
      }))

    it.effect("several versions in preference order: the first one served is used", () =>
      Effect.gen(function*() {
        const response = yield* get("/health", { "apps-version": "2030-01-01, 2026-10-09" })
        expect(response.status).toBe(200)
        expect(response.headers.get("apps-version")).toBe("2026-10-09")
      }))

    it.effect("an unknown version is 400 unsupported_api_version with the supported list", () =>
      Effect.gen(function*() {
        const response = yield* get("/v1/me", { "apps-version": "1999-01-01" })
        expect(response.status).toBe(400)
        expect(yield* json(response)).toEqual({
          error: {
            code: "unsupported_api_version",
            message: expect.stringContaining("1999-01-01"),
            hint: expect.any(String),
            details: { requested: "1999-01-01", supported: ["2026-10-09"], current: "2026-10-09" }
          }
        })
      }))
  })

  describe("one error envelope", () => {
    it.effect("an unknown route answers {error:{code, message, hint, details}} with nulls", () =>
      Effect.gen(function*() {
        const response = yield* get("/v1/nothing-here")
        expect(response.status).toBe(404)
        expect(response.headers.get("apps-version")).toBe("2026-10-09")
        expect(yield* json(response)).toEqual({
          error: { code: "route_not_found", message: "No route for GET /v1/nothing-here.", hint: null, details: null }
        })
      }))

    it.effect("a wrong method is 405 in the envelope with Allow", () =>
      Effect.gen(function*() {
        const response = yield* Effect.flatMap(RegistryUnderTest, ({ url }) =>
          Effect.promise(() => fetch(`${url}/health`, { method: "DELETE" })))
        expect(response.status).toBe(405)
        expect(response.headers.get("allow")).toBe("GET, HEAD")
        const body = yield* json(response)
        expect(body.error).toMatchObject({ code: "method_not_allowed", hint: null })
      }))

    it.effect("a declared error of a handler's middleware is written with every member too", () =>
      Effect.gen(function*() {
        const response = yield* get("/v1/me")
        expect(response.status).toBe(401)
        expect(yield* json(response)).toEqual({
          error: { code: "unauthenticated", message: "This route needs a signed-in account.", hint: expect.any(String), details: null }
        })
      }))
  })

  describe("rate limit headers", () => {
    it.effect("every response says where the client stands (draft-07 fields)", () =>
      Effect.gen(function*() {
        const first = yield* get("/health", { authorization: "Bearer not-a-token-but-a-client" })
        const second = yield* get("/v1/nothing-here", { authorization: "Bearer not-a-token-but-a-client" })
        expect(first.headers.get("ratelimit-limit")).toBe("600")
        expect(first.headers.get("ratelimit-policy")).toBe("600;w=60")
        expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1)
        expect(Number(first.headers.get("ratelimit-remaining")) - Number(second.headers.get("ratelimit-remaining"))).toBe(1)
      }))
  })

  describe("accounts' tokens", () => {
    it.effect("an account token for the registry reads the caller's identity", () =>
      Effect.gen(function*() {
        const ada = newCarbon("Ada")
        const { headers } = yield* signedIn(ada)
        const client = yield* registryClient(headers)
        expect(yield* client.me.me()).toEqual({
          uuid: ada.uuid,
          id: ada.id,
          display_name: "Ada",
          verified_emails: ada.verified_emails
        })
        const scout = yield* signedIn(newSilicon("Scout"))
        const asSilicon = yield* registryClient(scout.headers)
        expect((yield* asSilicon.me.me()).verified_emails).toEqual([])
      }))

    it.effect("a developer-platform token is accepted where spec 2 allows it", () =>
      Effect.gen(function*() {
        const { headers } = yield* signedIn(newCarbon("Dev"), "developer")
        const client = yield* registryClient(headers)
        expect((yield* client.me.me()).display_name).toBe("Dev")
      }))

    it.effect("another audience, an expired token, a forged signature and an unknown account are 401", () =>
      Effect.gen(function*() {
        const issuer = yield* TestIssuer
        const { identity } = yield* signedIn(newCarbon("Eve"))
        const tokens = yield* Effect.promise(() =>
          Promise.all([
            issuer.token({ sub: identity.uuid, aud: "some-app" }),
            issuer.token({ sub: identity.uuid, expiresIn: -60 }),
            issuer.forgedToken({ sub: identity.uuid }),
            issuer.token({ sub: "00000000-0000-4000-8000-000000000000" })
          ])
        )
        for (const token of tokens) {
          const response = yield* get("/v1/me", { authorization: `Bearer ${token}` })
          expect(response.status).toBe(401)
          expect((yield* json(response)).error.code).toBe("unauthenticated")
        }
      }))

    it.effect("the development bearer is refused unless the development flag is set", () =>
      Effect.gen(function*() {
        const { identity } = yield* signedIn(newCarbon("Local"))
        const response = yield* get("/v1/me", { authorization: `Bearer dev.${identity.uuid}` })
        expect(response.status).toBe(401)
        expect((yield* json(response)).error.message).toContain("REGISTRY_DEVELOPMENT_BEARER")
      }))
  })
})

layer(RegistryTest({ rateLimits: { readsPerMinute: 3, writesPerMinute: 1 }, developmentBearer: true }), { excludeTestServices: true })(
  "limits and the development bearer",
  (it) => {
    it.effect("past the limit: 429 rate_limited with Retry-After, and the headers still there", () =>
      Effect.gen(function*() {
        const client = { authorization: "Bearer limit-test-client" }
        for (let index = 0; index < 3; index++) expect((yield* get("/health", client)).status).toBe(200)
        const refused = yield* get("/health", client)
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        expect(refused.headers.get("ratelimit-remaining")).toBe("0")
        expect((yield* json(refused)).error).toMatchObject({ code: "rate_limited", details: { retry_after_seconds: expect.any(Number) } })
        // Another client has its own window.
        expect((yield* get("/health", { authorization: "Bearer another-client" })).status).toBe(200)
      }))

    it.effect("with the development flag, `dev.<uuid>` signs in as that account", () =>
      Effect.gen(function*() {
        // Accounts' uuids are short base62 ids (as its CLI prints them), not only RFC 4122 ones.
        for (const uuid of [crypto.randomUUID(), "VH6"]) {
          const { identity } = yield* signedIn({ ...newCarbon("Local"), uuid })
          const response = yield* get("/v1/me", { authorization: `Bearer dev.${identity.uuid}` })
          expect(response.status).toBe(200)
          expect((yield* json(response)).uuid).toBe(uuid)
        }
      }))
  }
)
