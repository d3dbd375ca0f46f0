import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { exampleServer } from "./ExampleService.ts"
import { call, servedOnFreePort } from "./servedOnFreePort.ts"

const ExampleTest = servedOnFreePort((port) => exampleServer({ EXAMPLE_PORT: String(port), EXAMPLE_DRAIN_SECONDS: "0" }))

layer(ExampleTest, { excludeTestServices: true })("a service stood up with serveHttpApi and ServiceConfig", (it) => {
  it.effect("answers its endpoints with the version header", () =>
    Effect.gen(function*() {
      const created = yield* call("/v1/notes", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hi" })
      })
      expect(created.status).toBe(201)
      expect(JSON.parse(created.text)).toEqual({ id: 1, text: "hi" })
      expect(created.headers.get("example-version")).toBe("2026-01-01")
      expect(created.headers.get("x-request-id")).toMatch(/^req_/)
      expect(created.headers.get("x-content-type-options")).toBe("nosniff")
      const read = yield* call("/v1/notes/7")
      expect(JSON.parse(read.text)).toEqual({ id: 7, text: "hello" })
    }))

  it.effect("refuses an unknown route and a wrong method in the error envelope", () =>
    Effect.gen(function*() {
      const missing = yield* call("/v1/nothing")
      expect(missing.status).toBe(404)
      expect(JSON.parse(missing.text).error.code).toBe("route_not_found")
      expect(missing.headers.get("x-content-type-options")).toBe("nosniff")
      const wrong = yield* call("/v1/notes", { method: "DELETE" })
      expect(wrong.status).toBe(405)
      expect(wrong.headers.get("allow")).toBe("POST")
      expect(JSON.parse(wrong.text).error.code).toBe("method_not_allowed")
      expect(wrong.headers.get("x-content-type-options")).toBe("nosniff")
    }))

  it.effect("serves /openapi.json, the /docs page and a home page linking to both", () =>
    Effect.gen(function*() {
      const openapi = yield* call("/openapi.json")
      expect(openapi.status).toBe(200)
      expect(Object.keys(JSON.parse(openapi.text).paths).sort()).toEqual(["/v1/notes", "/v1/notes/{id}"])
      const docs = yield* call("/docs")
      expect(docs.headers.get("content-type")).toContain("text/html")
      expect(docs.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
      expect(docs.headers.get("x-content-type-options")).toBe("nosniff")
      expect(openapi.headers.get("x-content-type-options")).toBe("nosniff")
      const home = yield* call("/")
      expect(home.status).toBe(200)
      expect(home.headers.get("content-type")).toContain("text/html")
      expect(home.text).toContain("<title>example</title>")
      for (const href of ["/docs", "/openapi.json", "https://example.com/guide"]) expect(home.text).toContain(`href="${href}"`)
      const posted = yield* call("/", { method: "POST" })
      expect(posted.status).toBe(405)
      expect(posted.headers.get("allow")).toBe("GET, HEAD")
    }))
})
