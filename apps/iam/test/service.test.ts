import { layer } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { ServiceUrl } from "@platform/testkit"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { expect } from "vitest"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"

const openApiDocument = Effect.flatMap(ServiceUrl, (url) =>
  Effect.promise(() =>
    fetch(`${url}/openapi.json`).then((response) => response.json() as Promise<{ info: { title: string }; paths: Record<string, unknown> }>)
  ))

layer(IamTest(), { excludeTestServices: true })("iam service", (it) => {
  it.effect("answers its probes, its metadata and its OpenAPI document", () =>
    Effect.gen(function*() {
      const client = yield* iamClient()
      expect(yield* client.service.healthz()).toEqual({ status: "ok" })
      expect(yield* client.service.readyz()).toEqual({ status: "ok" })
      const meta = yield* client.service.meta()
      expect(meta).toMatchObject({ name: "iam", versions: { current: "2026-11-01" } })
      const openapi = yield* openApiDocument
      expect(openapi.info.title).toBe("Organization IAM")
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(openapi))
      expect(result.errors ?? []).toEqual([])
      expect(validator.version).toBe("3.1")
    }))

  it.effect("/openapi.json is the reviewed contract (test/snapshots/openapi.json): a change to it is deliberate", () =>
    Effect.gen(function*() {
      // To accept a deliberate change: curl -s <server>/openapi.json | python3 -m json.tool --indent 2 > test/snapshots/openapi.json
      const reviewed = yield* Effect.promise(() => readFile(new URL("./snapshots/openapi.json", import.meta.url), "utf8"))
      expect(yield* openApiDocument).toEqual(JSON.parse(reviewed))
    }))

  it.effect("/docs renders the OpenAPI document for people", () =>
    Effect.gen(function*() {
      const url = yield* ServiceUrl
      const response = yield* Effect.promise(() => fetch(`${url}/docs`))
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toContain("text/html")
    }))

  it.effect("an unknown route answers the error envelope", () =>
    Effect.gen(function*() {
      const url = yield* ServiceUrl
      const response = yield* Effect.promise(() => fetch(`${url}/api/v1/nothing-here`))
      expect(response.status).toBe(404)
      expect(yield* Effect.promise(() => response.json())).toMatchObject({ error: { code: "route_not_found" } })
    }))

  it.effect("a bearer from an opened session speaks for its identity; a made-up one is unauthenticated", () =>
    Effect.gen(function*() {
      const sessions = yield* IamSessions
      const pair = yield* sessions.open(
        { uuid: "0b9f3a52-0000-4000-8000-000000000001", id: "c:ada", kind: "carbon", display_name: "Ada", status: "active" },
        "code"
      )
      expect(pair).toMatchObject({ token_type: "Bearer", expires_in: 1800 })
      expect(pair.access_token).toMatch(/^iat_[A-Za-z0-9_-]{43}$/)
      const signedIn = yield* iamClient({ authorization: `Bearer ${pair.access_token}` })
      expect(yield* signedIn.sessions.current()).toEqual({
        session_id: pair.session_id,
        identity: { uuid: "0b9f3a52-0000-4000-8000-000000000001", id: "c:ada", kind: "carbon" }
      })
      const stranger = yield* iamClient({ authorization: "Bearer iat_madeup" })
      const refused = yield* Effect.flip(stranger.sessions.current())
      expect(refused).toMatchObject({ _tag: "Unauthenticated", code: "unauthenticated" })
    }).pipe(Effect.provide(IamSessions.Default)))
})
