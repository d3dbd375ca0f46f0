import { expect, layer } from "@effect/vitest"
import { readFile } from "node:fs/promises"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"

const get = (path: string, init?: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

layer(AccountsTest(), { excludeTestServices: true })("probes, meta, capabilities and the OpenAPI document", (it) => {
  it.effect("/healthz and /readyz answer 200 outside /v1, without a version header", () =>
    Effect.gen(function*() {
      for (const path of ["/healthz", "/readyz"]) {
        const res = yield* get(path)
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ status: "ok" })
        expect(res.headers.get("accounts-version")).toBeNull()
      }
    }))

  it.effect("GET /v1/meta is the Meta record", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const res = yield* get("/v1/meta")
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        name: "accounts",
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        environment: "development",
        public_url: url,
        apps_url: "http://127.0.0.1:4300",
        docs_url: `${url}/docs`,
        providers: { idp_a: false, idp_b: false },
        delivery: []
      })
    }))

  it.effect("GET /v1/capabilities lists versions and features, and checks require", () =>
    Effect.gen(function*() {
      const plain = yield* get("/v1/capabilities")
      expect(plain.status).toBe(200)
      expect(plain.body.versions).toEqual({ current: "2026-10-01", supported: ["2026-10-01"] })
      expect(plain.body.features).toContain("idempotency")
      const satisfied = yield* get("/v1/capabilities?require=idempotency,version:2026-10-01")
      expect(satisfied.status).toBe(200)
      expect(satisfied.body.requirements).toEqual({ satisfied: true, required: ["idempotency", "version:2026-10-01"] })
      const missing = yield* get("/v1/capabilities?require=idempotency,sse,version:2019-01-01")
      expect(missing.status).toBe(422)
      expect(missing.body.error).toMatchObject({
        code: "requirements_not_met",
        details: { missing: ["sse", "version:2019-01-01"] }
      })
    }))

  it.effect("/openapi.json validates as OpenAPI 3.1 and documents every endpoint and error envelope", () =>
    Effect.gen(function*() {
      const res = yield* get("/openapi.json")
      expect(res.status).toBe(200)
      expect(res.headers.get("accounts-version")).toBe("2026-10-01")
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(res.body))
      expect(result.errors ?? []).toEqual([])
      expect(result.valid).toBe(true)
      expect(validator.version).toBe("3.1")
      const paths = Object.keys(res.body.paths)
      for (const path of ["/healthz", "/readyz", "/v1/meta", "/v1/capabilities", "/.well-known/openid-configuration", "/.well-known/jwks.json"]) {
        expect(paths).toContain(path)
      }
      const capabilities = res.body.paths["/v1/capabilities"].get
      expect(capabilities.responses["422"].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/RequirementsNotMet"
      )
      const envelope = res.body.components.schemas["RequirementsNotMet"]
      expect(envelope.properties.error.properties.code.enum).toEqual(["requirements_not_met"])
      expect(JSON.stringify(res.body)).not.toContain("HttpApiDecodeError")
    }))

  it.effect("/openapi.json is the reviewed contract (test/snapshots/openapi.json): a change to it is deliberate", () =>
    Effect.gen(function*() {
      const res = yield* get("/openapi.json")
      // To accept a deliberate change: curl -s <server>/openapi.json | python3 -m json.tool --indent 2 > test/snapshots/openapi.json
      const reviewed = yield* Effect.promise(() => readFile(new URL("./snapshots/openapi.json", import.meta.url), "utf8"))
      expect(res.body).toEqual(JSON.parse(reviewed))
    }))

  it.effect("/docs renders the OpenAPI document for people", () =>
    Effect.gen(function*() {
      const res = yield* get("/docs")
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toContain("text/html")
      expect(String(res.body)).toContain("<html")
    }))

  it.effect("GET / is the account site's front door: without a session, the hosted sign-in of the first-party app", () =>
    Effect.gen(function*() {
      const res = yield* get("/", { redirect: "manual" })
      expect(res.status).toBe(303)
      expect(res.headers.get("location")).toMatch(/^\/authorize\?flow=flw_/)
      expect(res.headers.get("x-request-id")).toBeTruthy()
      const head = yield* get("/", { method: "HEAD", redirect: "manual" })
      expect(head.status).toBe(303)
      expect(head.body).toBeNull()
      const post = yield* get("/", { method: "POST" })
      expect(post.status).toBe(405)
      expect(post.headers.get("allow")).toBe("GET, HEAD")
      expect(post.body.error.code).toBe("method_not_allowed")
    }))
})
