import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApp, HttpServerResponse } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Schema, Stream } from "effect"
import { compiledGroup, serveHttpApi } from "../src/index.ts"
import { exampleVersioning } from "./ExampleService.ts"
import { BaseUrl, call, servedOnFreePort } from "./servedOnFreePort.ts"

// What the service's own listener must do that Effect's server used to: hand handlers the route's
// parameters and the query as the router did, run what handlers registered for their response, send
// every kind of body, answer HEAD without one, and interrupt a request whose client went away.
const started = Effect.runSync(Deferred.make<void>())
const interrupted = Effect.runSync(Deferred.make<void>())

class ListenerApi extends HttpApi.make("listener").add(
  HttpApiGroup.make("probes")
    .add(
      HttpApiEndpoint.get("echo", "/v1/echo/:name")
        .setPath(Schema.Struct({ name: Schema.String }))
        .setUrlParams(Schema.Struct({ tag: Schema.optional(Schema.Array(Schema.String)) }))
        .addSuccess(Schema.Struct({ name: Schema.String, tags: Schema.Array(Schema.String) }))
    )
    .add(HttpApiEndpoint.get("cookie", "/v1/cookie").addSuccess(Schema.Struct({ ok: Schema.Boolean })))
    .add(HttpApiEndpoint.get("lines", "/v1/lines").addSuccess(Schema.String))
    .add(HttpApiEndpoint.get("wait", "/v1/wait").addSuccess(Schema.Struct({ ok: Schema.Boolean })))
    .add(
      HttpApiEndpoint.post("count", "/v1/counts/:id")
        .setPath(Schema.Struct({ id: Schema.NumberFromString }))
        .setPayload(Schema.Struct({ by: Schema.Int }))
        .addSuccess(Schema.Struct({ id: Schema.Number, total: Schema.Number }), { status: 201 })
    )
) {}

// Built with compiledGroup: the endpoints without a query schema are answered compiled, `echo` (which has one)
// by HttpApiBuilder's own route effect; both are held to the same behaviour here.
const ProbesLive = compiledGroup(ListenerApi, "probes", (handlers) =>
  handlers
    .handle("echo", ({ path, urlParams }) => Effect.succeed({ name: path.name, tags: urlParams.tag ?? [] }))
    .handle("cookie", () =>
      Effect.as(
        HttpApp.appendPreResponseHandler((_request, response) =>
          Effect.orDie(HttpServerResponse.setCookie(response, "seen", "yes", { httpOnly: true, path: "/" }))
        ),
        { ok: true }
      ))
    .handleRaw("lines", () =>
      Effect.succeed(HttpServerResponse.stream(Stream.make("one\n", "two\n").pipe(Stream.encodeText), { contentType: "text/plain" })))
    .handle("count", ({ path, payload }) => Effect.succeed({ id: path.id, total: path.id + payload.by }))
    .handle("wait", () =>
      Deferred.succeed(started, undefined).pipe(
        Effect.zipRight(Effect.never),
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )))

const ListenerTest = servedOnFreePort((port) =>
  serveHttpApi({
    name: "listener",
    api: ListenerApi,
    handlers: ProbesLive,
    versioning: exampleVersioning,
    settings: { port, host: "127.0.0.1", publicUrl: `http://127.0.0.1:${port}`, drainSeconds: 0 }
  })
)

layer(ListenerTest, { excludeTestServices: true })("the service's own request listener", (it) => {
  it.effect("gives handlers percent-decoded path parameters and a repeated query parameter as a list", () =>
    Effect.gen(function*() {
      const answer = yield* call("/v1/echo/caf%C3%A9%20bar?tag=a&tag=b")
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.text)).toEqual({ name: "café bar", tags: ["a", "b"] })
      const one = yield* call("/v1/echo/x?tag=only")
      expect(JSON.parse(one.text)).toEqual({ name: "x", tags: ["only"] })
    }))

  it.effect("sends what a handler registered for its response (a cookie) with the conventions' headers", () =>
    Effect.gen(function*() {
      const answer = yield* call("/v1/cookie")
      expect(answer.status).toBe(200)
      expect(answer.headers.get("set-cookie")).toBe("seen=yes; Path=/; HttpOnly")
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/)
    }))

  it.effect("streams a stream body and answers HEAD with the headers and no body", () =>
    Effect.gen(function*() {
      const streamed = yield* call("/v1/lines")
      expect(streamed.status).toBe(200)
      expect(streamed.text).toBe("one\ntwo\n")
      const head = yield* call("/v1/echo/x", { method: "HEAD" })
      expect(head.status).toBe(200)
      expect(head.headers.get("content-type")).toBe("application/json")
      expect(head.text).toBe("")
    }))

  it.effect("decodes a compiled endpoint's path and body, encodes its declared status, and refuses what does not decode", () =>
    Effect.gen(function*() {
      const json = { method: "POST", headers: { "content-type": "application/json" } }
      const created = yield* call("/v1/counts/40", { ...json, body: JSON.stringify({ by: 2 }) })
      expect(created.status).toBe(201)
      expect(JSON.parse(created.text)).toEqual({ id: 40, total: 42 })
      const badPath = yield* call("/v1/counts/forty", { ...json, body: JSON.stringify({ by: 2 }) })
      expect(badPath.status).toBe(400)
      expect(JSON.parse(badPath.text).error.code).toBe("invalid_path")
      const badBody = yield* call("/v1/counts/40", { ...json, body: JSON.stringify({ by: 1.5 }) })
      expect(badBody.status).toBe(422)
      expect(JSON.parse(badBody.text).error).toMatchObject({ code: "validation_failed", details: { fields: { by: expect.any(String) } } })
    }))

  it.effect("interrupts the work of a request whose client went away", () =>
    Effect.gen(function*() {
      const url = yield* BaseUrl
      const aborted = new AbortController()
      const answer = fetch(`${url}/v1/wait`, { signal: aborted.signal }).catch((error: unknown) => error)
      yield* Deferred.await(started)
      aborted.abort()
      yield* Deferred.await(interrupted)
      expect(yield* Effect.promise(() => answer)).toBeInstanceOf(Error)
    }))
})
