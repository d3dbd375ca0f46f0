import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, type HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Ref, Schema } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import {
  answerWith,
  type ApiVersioning,
  conventions,
  errorResponse,
  MaxBodyBytes,
  noStore,
  TimeBudgetMillis,
  OriginNotAllowed,
  publicDocument,
  type RequestListener,
  requireOrigin,
  setCookie,
  strict
} from "../src/index.ts"
import { ApiError } from "../src/ApiError.ts"
import { type ErrorFormat, ErrorFormatId } from "../src/ErrorFormat.ts"

export class WidgetMissing extends ApiError<WidgetMissing>()("WidgetMissing", {
  code: "widget_missing",
  status: 404,
  details: Schema.Struct({ widget_id: Schema.String })
}) {}

/** A route's own error format, as the OAuth endpoints declare theirs: `{problem, status}` and no-store. */
const problemFormat: ErrorFormat = {
  body: (error) => ({ problem: error.code, status: error.status }),
  headers: { "cache-control": "no-store" }
}
const ProblemBody = Schema.Struct({ fail: Schema.optional(Schema.String) }).annotations({ [ErrorFormatId]: problemFormat })

/** A defect the test server counts as a dependency out of reach (the database, in a service). */
export class TestOutage extends Error {}

const Widget = Schema.Struct({ name: Schema.String.pipe(Schema.minLength(1)), size: Schema.Int })

export class TestApi extends HttpApi.make("test").add(
  HttpApiGroup.make("widgets")
    .add(
      HttpApiEndpoint.post("create", "/v1/widgets")
        .setPayload(strict(Widget))
        .addSuccess(Widget, { status: 201 })
    )
    .add(
      HttpApiEndpoint.get("read", "/v1/widgets/:id")
        .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
        .setUrlParams(Schema.Struct({ limit: Schema.optional(Schema.NumberFromString.pipe(Schema.between(1, 200))) }))
        .addSuccess(Schema.Struct({ id: Schema.Number }))
        .addError(errorResponse(WidgetMissing))
    )
    .add(
      HttpApiEndpoint.del("remove", "/v1/widgets/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .addSuccess(Schema.Void)
    )
    .add(
      HttpApiEndpoint.post("upload", "/v1/uploads")
        .setPayload(Schema.Struct({ data: Schema.String }))
        .addSuccess(Schema.Struct({ length: Schema.Number }))
        .annotate(MaxBodyBytes, 1024)
    )
    .add(HttpApiEndpoint.get("boom", "/v1/boom").addSuccess(Schema.Void))
    .add(
      HttpApiEndpoint.post("signIn", "/v1/cookies")
        .addSuccess(Schema.Struct({ ok: Schema.Boolean }))
        .addError(errorResponse(OriginNotAllowed))
    )
    .add(HttpApiEndpoint.get("document", "/v1/document").addSuccess(Schema.Struct({ ok: Schema.Boolean })))
    .add(HttpApiEndpoint.get("ping", "/v1/ping").addSuccess(Schema.Struct({ calls: Schema.Number })))
    .add(HttpApiEndpoint.get("slow", "/v1/slow").addSuccess(Schema.Void).annotate(TimeBudgetMillis, 150))
    .add(
      HttpApiEndpoint.post("problem", "/v1/problems")
        .setPayload(ProblemBody)
        .addSuccess(Schema.Struct({ ok: Schema.Boolean }))
        .annotate(MaxBodyBytes, 1024)
    )
)
{}

/** Counts handler runs, so a test can prove a refused request never reached one. */
export class HandlerCalls extends Context.Tag("test/HandlerCalls")<HandlerCalls, Ref.Ref<number>>() {}

export const testVersioning: ApiVersioning = {
  header: "Test-Version",
  supported: ["2026-01-01", "2026-10-01"],
  current: "2026-10-01",
  prefixes: ["/v1"]
}

const WidgetsLive = HttpApiBuilder.group(TestApi, "widgets", (handlers) =>
  Effect.gen(function*() {
    const calls = yield* HandlerCalls
    const count = Ref.updateAndGet(calls, (n) => n + 1)
    return handlers
      .handle("create", ({ payload }) => Effect.as(count, payload))
      .handle("read", ({ path }) =>
        Effect.zipRight(
          count,
          path.id === 404
            ? Effect.fail(new WidgetMissing({ message: "No such widget.", details: { widget_id: "404" } }))
            : Effect.succeed({ id: path.id })
        ))
      .handle("remove", () => Effect.asVoid(count))
      .handle("upload", ({ payload }) => Effect.as(count, { length: payload.data.length }))
      .handle("boom", () => Effect.zipRight(count, Effect.die(new Error("secret internal detail: db password hunter2"))))
      .handle("ping", () => Effect.map(count, (calls) => ({ calls })))
      // Longer than its 150 ms budget, and uninterruptible (as a handler that commits is).
      .handle("slow", () => Effect.zipRight(count, Effect.sleep("1 second")), { uninterruptible: true })
      .handle("signIn", () =>
        Effect.gen(function*() {
          yield* requireOrigin(["http://app.example"])
          yield* noStore
          yield* setCookie({ production: false }, "sa_session", "dev-value", "900 days")
          yield* setCookie({ production: true }, "sa_flow", "prod-value", "1 hour")
          return { ok: true }
        }))
      .handle("document", () => Effect.as(publicDocument(300), { ok: true }))
      .handle("problem", ({ payload }) =>
        payload.fail === "outage"
          ? Effect.die(new TestOutage("database unreachable"))
          : payload.fail === "defect"
          ? Effect.die(new Error("secret internal detail"))
          : Effect.succeed({ ok: true }))
  }))

export const HandlerCallsLive = Layer.effect(HandlerCalls, Ref.make(0))

/** A request listener on 127.0.0.1 at a random port, for the scope: `http://127.0.0.1:<port>`. */
export const listenOnRandomPort = (listener: RequestListener) =>
  Effect.gen(function*() {
    const server = createServer(listener)
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () => Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

/** Where the test API listens: `http://127.0.0.1:<port>`. */
class TestServerUrl extends Context.Tag("test/TestServerUrl")<TestServerUrl, string>() {}

/**
 * The test API served over real HTTP on a random port with the shared conventions' listener around
 * Effect's own router (services answer through their compiled dispatch instead; see @platform/service).
 */
export const TestServerLive = Layer.scoped(
  TestServerUrl,
  Effect.gen(function*() {
    // The router itself, whose failures reach the conventions untranslated (HttpApiBuilder.httpApp would answer them).
    const router = yield* HttpApiBuilder.Router.router
    const listener = conventions({
      api: TestApi,
      versioning: testVersioning,
      unavailable: (defect) => defect instanceof TestOutage
    })(answerWith(router), yield* Effect.runtime<HttpRouter.HttpRouter.DefaultServices>())
    return yield* listenOnRandomPort(listener)
  })
).pipe(
  Layer.provide(HttpApiBuilder.api(TestApi).pipe(Layer.provide(WidgetsLive))),
  Layer.provide([HttpApiBuilder.Router.Live, NodeHttpServer.layerContext]),
  Layer.provideMerge(HandlerCallsLive)
)

export const baseUrl = TestServerUrl
