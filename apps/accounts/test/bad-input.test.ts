import { expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { type BadRequest, badRequests, resolver } from "./support/badInput.ts"
import { createCarbon } from "./support/carbons.ts"
import { envelopeProblem } from "./support/envelope.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

type Json = Record<string, unknown>

const INTERNAL_TOKEN = "internal-token-for-bad-input"

layer(AccountsTest({ internalToken: Option.some(Redacted.make(INTERNAL_TOKEN)) }), { excludeTestServices: true })(
  "bad input, for every operation of /openapi.json",
  (it) => {
    it.effect("deep nesting, NUL and control characters, overlong UTF-8 and lone surrogates: never a 5xx, always a documented error body", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const carbon = yield* createCarbon()
        const { accessToken } = yield* signInDirectly(carbon.uuid)
        const document = yield* Effect.promise(() => fetch(`${url}/openapi.json`).then((res) => res.json() as Promise<Json>))
        const resolve = resolver(document)
        const requests = badRequests(document, url)
        // Every operation gets something thrown at it.
        const covered = new Set(requests.map((request) => `${request.operation.method} ${request.operation.path}`))
        expect(covered.size).toBe(Object.values(document["paths"] as Record<string, object>).flatMap(Object.keys).length)

        const send = (request: BadRequest) => {
          const token = request.operation.path.startsWith("/v1/internal/") ? INTERNAL_TOKEN : accessToken
          const headers: Record<string, string> = { authorization: `Bearer ${token}` }
          if (request.contentType !== undefined) headers["content-type"] = request.contentType
          return Effect.promise(() =>
            fetchAnswer(request.url, {
              method: request.operation.method,
              headers,
              redirect: "manual",
              ...(request.body === undefined ? {} : { body: request.body })
            })
          ).pipe(Effect.map((answer) => {
            if (answer.status < 400) return undefined
            const problem = answer.status >= 500
              ? "a 5xx"
              : envelopeProblem(request.operation, answer.status, answer.body, resolve)
            return problem === undefined
              ? undefined
              : `${request.label} -> ${answer.status} ${problem}: ${JSON.stringify(answer.body).slice(0, 160)}`
          }))
        }
        const problems = yield* Effect.forEach(requests, send, { concurrency: 4 })
        expect(problems.filter((problem) => problem !== undefined)).toEqual([])
      }), 60_000)
  }
)
