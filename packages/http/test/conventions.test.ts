import { describe, expect, layer } from "@effect/vitest"
import { Effect, Ref } from "effect"
import { request as httpRequest } from "node:http"
import { baseUrl, HandlerCalls, TestServerLive } from "./TestApi.ts"

const call = (path: string, init?: RequestInit) =>
  Effect.flatMap(baseUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, init)
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text.length > 0 ? JSON.parse(text) : null }
    }))

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})

/** A chunked upload (no Content-Length) that keeps sending until the server stops reading. */
const chunkedUpload = (url: string, path: string, totalBytes: number) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" }
    }, (res) => {
      let body = ""
      res.on("data", (chunk) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on("error", reject)
    const chunk = "x".repeat(256)
    let sent = 0
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      req.end()
    }
    req.write("{\"data\":\"")
    pump()
  })

layer(TestServerLive)("shared HTTP conventions over real HTTP", (it) => {
  describe("error envelope for the framework's own failures", () => {
    it.effect("an unknown route is 404 route_not_found", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/nothing-here")
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe("route_not_found")
        expect(typeof res.body.error.message).toBe("string")
      }))

    it.effect("a wrong method is 405 method_not_allowed with Allow", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets/7", { method: "PUT" })
        expect(res.status).toBe(405)
        expect(res.body.error.code).toBe("method_not_allowed")
        expect(res.headers.get("allow")).toBe("GET, DELETE, HEAD")
      }))

    it.effect("malformed JSON is 400 invalid_json", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{\"name\":"
        })
        expect(res.status).toBe(400)
        expect(res.body.error.code).toBe("invalid_json")
      }))

    it.effect("a body of another media type is 415 unsupported_media_type", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" })
        expect(res.status).toBe(415)
        expect(res.body.error.code).toBe("unsupported_media_type")
        expect(res.body.error.details).toEqual({ received: "text/plain", expected: ["application/json"] })
      }))

    it.effect("a body without Content-Type, or with a malformed one, is 400 invalid_content_type", () =>
      Effect.gen(function*() {
        const missing = yield* call("/v1/widgets", { method: "POST", body: new Blob(["{}"]) })
        expect(missing.status).toBe(400)
        expect(missing.body.error.code).toBe("invalid_content_type")
        const malformed = yield* call("/v1/widgets", { method: "POST", headers: { "content-type": "json" }, body: "{}" })
        expect(malformed.status).toBe(400)
        expect(malformed.body.error.code).toBe("invalid_content_type")
      }))

    it.effect("an empty JSON body counts as an empty object", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", { method: "POST", headers: { "content-type": "application/json" } })
        expect(res.status).toBe(422)
        expect(Object.keys(res.body.error.details.fields).sort()).toEqual(["name", "size"])
      }))

    it.effect("a body over the default 64 KB is 413 with details.limit_bytes", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", json({ name: "x".repeat(70 * 1024), size: 1 }))
        expect(res.status).toBe(413)
        expect(res.body.error).toMatchObject({ code: "payload_too_large", details: { limit_bytes: 65536 } })
      }))

    it.effect("a route's own limit applies, and a chunked body is cut off without being buffered", () =>
      Effect.gen(function*() {
        const declared = yield* call("/v1/uploads", json({ data: "y".repeat(2000) }))
        expect(declared.status).toBe(413)
        expect(declared.body.error.details).toEqual({ limit_bytes: 1024 })
        const url = yield* baseUrl
        // 50 MB offered; the server answers after ~1 KB and never reads the rest.
        const chunked = yield* Effect.promise(() => chunkedUpload(url, "/v1/uploads", 50 * 1024 * 1024))
        expect(chunked.status).toBe(413)
        expect(JSON.parse(chunked.body).error.details.limit_bytes).toBe(1024)
        const small = yield* call("/v1/uploads", json({ data: "ok" }))
        expect(small.status).toBe(200)
        expect(small.body).toEqual({ length: 2 })
      }))

    it.effect("schema failures in a body are 422 validation_failed naming every field", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", json({ name: "", size: 1.5 }))
        expect(res.status).toBe(422)
        expect(res.body.error.code).toBe("validation_failed")
        expect(Object.keys(res.body.error.details.fields).sort()).toEqual(["name", "size"])
      }))

    it.effect("unknown fields are refused where the body is strict", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", json({ name: "a", size: 1, colour: "red" }))
        expect(res.status).toBe(422)
        expect(res.body.error.details.fields).toHaveProperty("colour")
      }))

    it.effect("a bad path parameter is 400 invalid_path naming it", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets/abc")
        expect(res.status).toBe(400)
        expect(res.body.error.code).toBe("invalid_path")
        expect(res.body.error.details.parameter).toBe("id")
      }))

    it.effect("a bad query parameter is 400 invalid_query naming it", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets/7?limit=500")
        expect(res.status).toBe(400)
        expect(res.body.error.code).toBe("invalid_query")
        expect(res.body.error.details.parameter).toBe("limit")
      }))

    it.effect("a declared error keeps its code, status and details", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets/404")
        expect(res.status).toBe(404)
        expect(res.body).toEqual({
          error: { code: "widget_missing", message: "No such widget.", details: { widget_id: "404" } }
        })
      }))

    it.effect("a defect is 500 with details.request_id and nothing internal", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/boom", { headers: { "x-request-id": "trace-500" } })
        expect(res.status).toBe(500)
        expect(res.body.error.code).toBe("internal_error")
        expect(res.body.error.details).toEqual({ request_id: "trace-500" })
        expect(JSON.stringify(res.body)).not.toMatch(/hunter2|secret internal|stack|Error:/)
      }))
  })

  describe("response helpers", () => {
    it.effect("cookies are HttpOnly, SameSite=Lax, Path=/; production ones __Host- and Secure; no-store is set", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/cookies", { method: "POST", headers: { origin: "http://app.example" } })
        expect(res.status).toBe(200)
        expect(res.headers.get("cache-control")).toBe("no-store")
        const cookies = res.headers.getSetCookie()
        const dev = cookies.find((cookie) => cookie.startsWith("sa_session="))!
        expect(dev).toMatch(/HttpOnly/)
        expect(dev).toMatch(/SameSite=Lax/)
        expect(dev).toMatch(/Path=\//)
        expect(dev).toMatch(/Max-Age=77760000/)
        expect(dev).not.toMatch(/Secure/)
        const prod = cookies.find((cookie) => cookie.startsWith("__Host-sa_flow="))!
        expect(prod).toMatch(/Secure/)
        expect(prod).toMatch(/Max-Age=3600/)
      }))

    it.effect("the Origin check refuses a missing or foreign Origin with 403 origin_not_allowed", () =>
      Effect.gen(function*() {
        const missing = yield* call("/v1/cookies", { method: "POST" })
        expect(missing.status).toBe(403)
        expect(missing.body.error.code).toBe("origin_not_allowed")
        const foreign = yield* call("/v1/cookies", { method: "POST", headers: { origin: "http://evil.example" } })
        expect(foreign.status).toBe(403)
        expect(foreign.headers.getSetCookie()).toEqual([])
      }))

    it.effect("a public document is CORS * and cacheable", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/document")
        expect(res.headers.get("access-control-allow-origin")).toBe("*")
        expect(res.headers.get("cache-control")).toBe("public, max-age=300")
      }))
  })

  describe("request ids", () => {
    it.effect("a valid X-Request-Id is echoed, on success and on failure", () =>
      Effect.gen(function*() {
        const ok = yield* call("/v1/ping", { headers: { "x-request-id": "abc-123_x.y:z" } })
        expect(ok.headers.get("x-request-id")).toBe("abc-123_x.y:z")
        const missing = yield* call("/v1/nope", { headers: { "x-request-id": "abc-123" } })
        expect(missing.headers.get("x-request-id")).toBe("abc-123")
      }))

    it.effect("an absent or invalid one is replaced by a generated id", () =>
      Effect.gen(function*() {
        const absent = yield* call("/v1/ping")
        const invalid = yield* call("/v1/ping", { headers: { "x-request-id": "has spaces!" } })
        const tooLong = yield* call("/v1/ping", { headers: { "x-request-id": "a".repeat(129) } })
        for (const res of [absent, invalid, tooLong]) {
          expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/)
        }
        expect(absent.headers.get("x-request-id")).not.toBe(invalid.headers.get("x-request-id"))
      }))
  })

  describe("dated versions", () => {
    it.effect("every versioned response names the version and varies on it", () =>
      Effect.gen(function*() {
        const current = yield* call("/v1/ping")
        expect(current.headers.get("test-version")).toBe("2026-10-01")
        expect(current.headers.get("vary")).toBe("Test-Version")
        const pinned = yield* call("/v1/ping", { headers: { "test-version": "2026-01-01" } })
        expect(pinned.headers.get("test-version")).toBe("2026-01-01")
        const error = yield* call("/v1/nope")
        expect(error.headers.get("test-version")).toBe("2026-10-01")
      }))

    it.effect("an unserved version is refused before the handler runs", () =>
      Effect.gen(function*() {
        const calls = yield* HandlerCalls
        const before = yield* Ref.get(calls)
        const res = yield* call("/v1/widgets", json({ name: "a", size: 1 }, { "test-version": "2025-01-01" }))
        expect(res.status).toBe(400)
        expect(res.body.error).toMatchObject({
          code: "unsupported_version",
          details: { requested: "2025-01-01", supported: ["2026-01-01", "2026-10-01"], current: "2026-10-01" }
        })
        expect(yield* Ref.get(calls)).toBe(before)
        const served = yield* call("/v1/widgets", json({ name: "a", size: 1 }, { "test-version": "2026-01-01" }))
        expect(served.status).toBe(201)
        expect(yield* Ref.get(calls)).toBe(before + 1)
      }))
  })

  describe("input no handler sees: deep nesting, NUL, control characters, bad percent-encoding", () => {
    it.effect("JSON nested deeper than 64 levels is 400 invalid_json, 64 levels still parse", () =>
      Effect.gen(function*() {
        const calls = yield* HandlerCalls
        const before = yield* Ref.get(calls)
        const deep = yield* call("/v1/widgets", { ...json(null), body: "[".repeat(10_000) + "]".repeat(10_000) })
        expect(deep.status).toBe(400)
        expect(deep.body.error).toEqual({ code: "invalid_json", message: expect.stringContaining("deeper than 64") })
        const inString = yield* call("/v1/widgets", json({ name: "[".repeat(100), size: 1 }))
        expect(inString.status).toBe(201)
        // 64 levels parse; an array is then not the object the route takes.
        const sixtyFour = yield* call("/v1/widgets", { ...json(null), body: "[".repeat(64) + "]".repeat(64) })
        expect(sixtyFour.body.error.code).toBe("invalid_body")
        expect(yield* Ref.get(calls)).toBe(before + 1)
      }))

    it.effect("NUL or a lone surrogate in a JSON string is 422 validation_failed naming the field", () =>
      Effect.gen(function*() {
        const nul = yield* call("/v1/widgets", json({ name: "a\u0000b", size: 1 }))
        expect(nul.status).toBe(422)
        expect(nul.body.error.details).toEqual({ fields: { name: "must not contain NUL (U+0000)" } })
        const surrogate = yield* call("/v1/widgets", { ...json(null), body: `{"name":"\\ud800","size":1}` })
        expect(surrogate.status).toBe(422)
        expect(Object.keys(surrogate.body.error.details.fields)).toEqual(["name"])
        const pair = yield* call("/v1/widgets", { ...json(null), body: `{"name":"\\ud83d\\ude00","size":1}` })
        expect(pair.status).toBe(201)
      }))

    it.effect("a path parameter with a control character or bytes that are not UTF-8 is 400 invalid_path naming it", () =>
      Effect.gen(function*() {
        for (const raw of ["a%00b", "%0A", "%C0%80", "%ED%A0%80", "%FF", "%"]) {
          const res = yield* call(`/v1/widgets/${raw}`, { method: "DELETE" })
          expect(res.status, raw).toBe(400)
          expect(res.body.error.code, raw).toBe("invalid_path")
          expect(res.body.error.details.parameter, raw).toBe("id")
        }
        expect((yield* call("/v1/widgets/caf%C3%A9", { method: "DELETE" })).status).toBe(204)
      }))

    it.effect("a control character in a query parameter, declared or not, is 400 invalid_query naming it", () =>
      Effect.gen(function*() {
        const declared = yield* call("/v1/widgets/7?limit=1%00")
        expect(declared.status).toBe(400)
        expect(declared.body.error.details).toEqual({ parameter: "limit", problem: "must not contain control characters" })
        const undeclared = yield* call("/v1/widgets/7?other=%1B")
        expect(undeclared.body.error.details.parameter).toBe("other")
      }))
  })

  describe("a route with its own error format answers every failure in it", () => {
    const problem = (status: number, code: string) => ({ problem: code, status })
    const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
      call("/v1/problems", { method: "POST", headers, body })

    it.effect("refused bodies, query and version keep their status and take the route's body and headers", () =>
      Effect.gen(function*() {
        const calls = yield* HandlerCalls
        const before = yield* Ref.get(calls)
        const cases: ReadonlyArray<readonly [string, ReturnType<typeof call>, number, string]> = [
          ["malformed JSON", post("{nope"), 400, "invalid_json"],
          ["too deep", post("[".repeat(100) + "]".repeat(100)), 400, "invalid_json"],
          ["NUL in a value", post(`{"fail":"a\\u0000"}`), 422, "validation_failed"],
          ["a wrong media type", post("fail=x", { "content-type": "text/plain" }), 415, "unsupported_media_type"],
          ["no Content-Type", call("/v1/problems", { method: "POST", body: new Blob(["{}"]) }), 400, "invalid_content_type"],
          ["too large", post(JSON.stringify({ fail: "x".repeat(2000) })), 413, "payload_too_large"],
          ["a control character in the query", call("/v1/problems?x=%00", json({})), 400, "invalid_query"],
          ["an unserved version", post("{}", { "content-type": "application/json", "test-version": "2020-01-01" }), 400, "unsupported_version"],
          ["a schema failure", post(`{"fail":5}`), 422, "validation_failed"]
        ]
        for (const [name, request, status, code] of cases) {
          const res = yield* request
          expect(res.status, name).toBe(status)
          expect(res.body, name).toEqual(problem(status, code))
          expect(res.headers.get("cache-control"), name).toBe("no-store")
        }
        expect(yield* Ref.get(calls)).toBe(before)
      }))

    it.effect("a wrong method is 405 in the format, with Allow", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/problems")
        expect(res.status).toBe(405)
        expect(res.headers.get("allow")).toBe("POST")
        expect(res.body).toEqual(problem(405, "method_not_allowed"))
        expect(res.headers.get("cache-control")).toBe("no-store")
      }))

    it.effect("an outage is 503 with Retry-After and a defect 500, both in the format and with nothing internal", () =>
      Effect.gen(function*() {
        const outage = yield* post(`{"fail":"outage"}`)
        expect(outage.status).toBe(503)
        expect(outage.headers.get("retry-after")).toMatch(/^\d+$/)
        expect(outage.body).toEqual(problem(503, "service_unavailable"))
        const defect = yield* post(`{"fail":"defect"}`)
        expect(defect.status).toBe(500)
        expect(defect.body).toEqual(problem(500, "internal_error"))
        expect((yield* post("{}")).body).toEqual({ ok: true })
      }))

    it.effect("other routes keep the envelope for the same failures", () =>
      Effect.gen(function*() {
        const res = yield* call("/v1/widgets", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })
        expect(res.status).toBe(415)
        expect(res.body.error.code).toBe("unsupported_media_type")
      }))
  })
})
