/**
 * One stage of a request's path, for bench:request-path: the same `GET /v1/meta` answer (the JSON in META_FILE,
 * decoded with accounts' own `Meta` schema) served by
 * - `bare`: node:http writing the pre-serialized bytes;
 * - `runtime`: node:http running the handler as an Effect on a prebuilt runtime, its answer encoded with the
 *   schema's precompiled encoder (what a lean path over our own route table would do per request);
 * - `floor`: `runtime` plus what every answer of ours carries whatever serves it: the request id (the
 *   caller's or a new one), the version and security headers, and the request's log line (to /dev/null,
 *   as the bench runs accounts), through @platform/http's own functions; no route table, no checks;
 * - `httpapi`: Effect's HttpApi with one endpoint and nothing else (no conventions, tracer off), on
 *   @effect/platform-node's server.
 * Env: STAGE, PORT, META_FILE.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, ManagedRuntime, Runtime, Schema } from "effect"
import { openSync, readFileSync, writeSync } from "node:fs"
import { createServer } from "node:http"
import { durationSince, NOSNIFF, requestIdFrom, writeRequestLine } from "@platform/http"
import { setLogSink } from "@platform/logging"
import { Meta } from "../../../apps/accounts/src/service/Api.ts"
import { accountsVersioning } from "../../../apps/accounts/src/versions.ts"

const stage = process.env["STAGE"]
const port = Number(process.env["PORT"])
const bytes = readFileSync(process.env["META_FILE"]!)
const meta = Schema.decodeUnknownSync(Meta)(JSON.parse(bytes.toString("utf8")))
const listening = () => process.stdout.write("ready\n")

class ServiceMeta extends Context.Tag("bench/ServiceMeta")<ServiceMeta, typeof meta>() {}
const handler = Effect.map(ServiceMeta, (value) => value)

if (stage === "bare") {
  createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length }).end(bytes)
  }).listen(port, "127.0.0.1", listening)
} else if (stage === "runtime") {
  const run = Runtime.runPromise(await ManagedRuntime.make(Layer.succeed(ServiceMeta, meta)).runtime())
  const encode = Schema.encodeSync(Meta)
  createServer((_, response) => {
    run(handler).then((value) => {
      const body = JSON.stringify(encode(value))
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body)
    }, () => response.writeHead(500).end())
  }).listen(port, "127.0.0.1", listening)
} else if (stage === "floor") {
  const run = Runtime.runPromise(await ManagedRuntime.make(Layer.succeed(ServiceMeta, meta)).runtime())
  const encode = Schema.encodeSync(Meta)
  // Written as accounts' lines are in the bench: its stdout is /dev/null, which Node writes synchronously.
  const devNull = openSync("/dev/null", "w")
  setLogSink((chunk) => writeSync(devNull, chunk))
  const { current, header } = accountsVersioning
  createServer((request, response) => {
    const started = performance.now()
    const requestId = requestIdFrom(request.headers["x-request-id"] as string | undefined)
    run(handler).then((value) => {
      const body = JSON.stringify(encode(value))
      response.writeHead(200, {
        ...NOSNIFF,
        "x-request-id": requestId,
        [header]: current,
        vary: header,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body)
      }).end(body)
      writeRequestLine({ method: "GET", route: "/v1/meta", status: 200, duration_ms: durationSince(started), request_id: requestId })
    }, () => response.writeHead(500).end())
  }).listen(port, "127.0.0.1", listening)
} else if (stage === "httpapi") {
  class Group extends HttpApiGroup.make("service").add(HttpApiEndpoint.get("meta", "/v1/meta").addSuccess(Meta)) {}
  class Api extends HttpApi.make("stage").add(Group) {}
  const GroupLive = HttpApiBuilder.group(Api, "service", (handlers) => handlers.handle("meta", () => handler))
  const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(GroupLive), Layer.provide(Layer.succeed(ServiceMeta, meta)))
  const server = createServer()
  server.once("listening", listening)
  NodeRuntime.runMain(Layer.launch(HttpApiBuilder.serve().pipe(
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(ApiLive),
    Layer.provide(NodeHttpServer.layer(() => server, { port, host: "127.0.0.1" }))
  )))
} else {
  throw new Error(`STAGE must be bare, runtime, floor or httpapi, not ${stage}`)
}
