import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { type Answer, fetchAnswer } from "./support/http.ts"

const OAUTH_ENDPOINTS = ["/v1/oauth/token", "/v1/oauth/introspect", "/v1/oauth/revoke"] as const
const FORM = "application/x-www-form-urlencoded"

const send = (path: string, init: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const post = (path: string, body: string | Blob, headers: Record<string, string> = { "content-type": FORM }) =>
  send(path, { method: "POST", headers, body })

/** An RFC 6749 §5.2 error body (never the service's envelope), never cached. */
const expectOAuthError = (answer: Answer, status: number, error: string, description?: RegExp) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toEqual({ error, error_description: description ? expect.stringMatching(description) : expect.any(String) })
  expect(answer.headers.get("cache-control")).toBe("no-store")
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
}

layer(AccountsTest(), { excludeTestServices: true })("OAuth endpoints answer RFC 6749 bodies for every refusal", (it) => {
  it.effect.each(OAUTH_ENDPOINTS)("%s: malformed JSON, a JSON array, a non-string value: 400 invalid_request", (path) =>
    Effect.gen(function*() {
      const json = { "content-type": "application/json" }
      expectOAuthError(yield* post(path, "{\"token\":", json), 400, "invalid_request", /not valid JSON/)
      expectOAuthError(yield* post(path, "[\"token\"]", json), 400, "invalid_request", /JSON object/)
      expectOAuthError(yield* post(path, "{\"token\":5}", json), 400, "invalid_request", /token must be a string/)
    }))

  it.effect.each(OAUTH_ENDPOINTS)("%s: a wrong, malformed or missing Content-Type: 415 or 400 invalid_request", (path) =>
    Effect.gen(function*() {
      expectOAuthError(yield* post(path, "token=a", { "content-type": "text/plain" }), 415, "invalid_request", /text\/plain/)
      expectOAuthError(yield* post(path, "token=a", { "content-type": "form" }), 400, "invalid_request", /media type/)
      expectOAuthError(yield* post(path, new Blob(["token=a"]), {}), 400, "invalid_request", /Content-Type/)
    }))

  it.effect.each(OAUTH_ENDPOINTS)("%s: a body over 64 KB: 413 invalid_request, the connection closed", (path) =>
    Effect.gen(function*() {
      const answer = yield* post(path, `token=${"a".repeat(70_000)}`)
      expectOAuthError(answer, 413, "invalid_request", /65536 bytes/)
      expect(answer.headers.get("connection")).toBe("close")
    }))

  it.effect.each(OAUTH_ENDPOINTS)("%s: a parameter repeated in a form or as a JSON key: 400 invalid_request", (path) =>
    Effect.gen(function*() {
      expectOAuthError(yield* post(path, "token=a&token=b"), 400, "invalid_request", /^Parameter token is repeated\.$/)
      const json = yield* post(path, "{\"token\":\"a\",\"token\":\"b\"}", { "content-type": "application/json" })
      expectOAuthError(json, 400, "invalid_request", /^Parameter token is repeated\.$/)
    }))

  it.effect.each(OAUTH_ENDPOINTS)("%s: a wrong method, an unserved version, a bad query or Idempotency-Key: invalid_request", (path) =>
    Effect.gen(function*() {
      const wrongMethod = yield* send(path, { method: "GET" })
      expectOAuthError(wrongMethod, 405, "invalid_request", /GET is not allowed/)
      expect(wrongMethod.headers.get("allow")).toBe("POST")
      const version = yield* post(path, "token=a", { "content-type": FORM, "accounts-version": "1999-01-01" })
      expectOAuthError(version, 400, "invalid_request", /1999-01-01 is not served/)
      expectOAuthError(yield* post(`${path}?x=%00`, "token=a"), 400, "invalid_request", /control characters/)
      const key = yield* post(path, "token=a", { "content-type": FORM, "idempotency-key": "a b" })
      expectOAuthError(key, 400, "invalid_request", /Idempotency-Key/)
      expectOAuthError(yield* post(path, "token=a\u0000"), 400, "invalid_request", /^Parameter token must not contain NUL/)
    }))

  it.effect("other routes keep the service's envelope for the same refusals", () =>
    Effect.gen(function*() {
      const answer = yield* post("/v1/reports", "{", { "content-type": "application/json" })
      expect(answer.status).toBe(400)
      expect(answer.body.error.code).toBe("invalid_json")
    }))
})
