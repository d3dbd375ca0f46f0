import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { TestDatabase } from "@platform/database"
import { serveHttpApi } from "@platform/service"
import { freePort } from "@platform/testkit"
import { expect, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Layer, Logger, LogLevel, Ref, Schema } from "effect"
import { IdempotencyAnswerExpiryMigration, IdempotencyMigration } from "../src/IdempotencyMigration.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"
import { carriesNewSecret, idempotentRequests } from "../src/IdempotentRequests.ts"

const Order = Schema.Struct({ item: Schema.String })

class OrdersApi extends HttpApi.make("orders").add(
  HttpApiGroup.make("orders").add(
    HttpApiEndpoint.post("create", "/v1/orders").setPayload(Order).addSuccess(
      Schema.Struct({ number: Schema.Number, item: Schema.String }),
      { status: 201 }
    )
  )
) {}

/** Lets a test hold the first request inside its handler until it says so. */
class Gate extends Context.Tag("test/Gate")<Gate, { readonly open: Deferred.Deferred<void>; readonly runs: Ref.Ref<number> }>() {}

const OrdersLive = HttpApiBuilder.group(OrdersApi, "orders", (handlers) =>
  Effect.gen(function*() {
    const gate = yield* Gate
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const number = yield* Ref.updateAndGet(gate.runs, (n) => n + 1)
        yield* Deferred.await(gate.open)
        yield* carriesNewSecret
        return { number, item: payload.item }
      }))
  }))

/** Where the orders API listens. */
class Port extends Context.Tag("test/Port")<Port, number>() {}

// Served as every service serves its API: the service kit's listener, the conventions, idempotency around.
const Served = Layer.unwrapEffect(
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    const store = yield* IdempotencyStore
    return Layer.merge(
      serveHttpApi({
        name: "orders",
        api: OrdersApi,
        handlers: OrdersLive,
        versioning: { header: "Orders-Version", supported: ["2026-01-01"], current: "2026-01-01", prefixes: ["/v1"] },
        around: idempotentRequests(store, { trustProxy: false }),
        settings: { port, host: "127.0.0.1", publicUrl: `http://127.0.0.1:${port}`, drainSeconds: 0 }
      }),
      Layer.succeed(Port, port)
    )
  })
).pipe(
  Layer.provideMerge(Layer.effect(Gate, Effect.all({ open: Deferred.make<void>(), runs: Ref.make(0) }))),
  Layer.provideMerge(IdempotencyStore.layer),
  Layer.provide(TestDatabase.layer({ "0001_idempotency": IdempotencyMigration, "0002_idempotency_answer_expiry": IdempotencyAnswerExpiryMigration })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const order = (item: string, key: string) =>
  Effect.flatMap(Port, (port) =>
    Effect.promise(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/orders`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ item })
      })
      return { status: response.status, headers: response.headers, body: await response.json() as any }
    }))

layer(Served, { excludeTestServices: true })("Idempotency-Key over real HTTP", (it) => {
  it.effect("while the first request runs, the same key is 409 idempotency_in_progress; then it replays", () =>
    Effect.gen(function*() {
      const gate = yield* Gate
      const first = yield* Effect.fork(order("tea", "order-1"))
      // Wait until the first request is inside its handler, holding the key.
      while ((yield* Ref.get(gate.runs)) === 0) yield* Effect.sleep("10 millis")
      const concurrent = yield* order("tea", "order-1")
      expect(concurrent.status).toBe(409)
      expect(concurrent.body.error.code).toBe("idempotency_in_progress")
      yield* Deferred.succeed(gate.open, undefined)
      const original = yield* first.await.pipe(Effect.flatten)
      expect(original.status).toBe(201)
      expect(original.body).toEqual({ number: 1, item: "tea" })
      const replay = yield* order("tea", "order-1")
      expect(replay.status).toBe(201)
      expect(replay.body).toEqual(original.body)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(yield* Ref.get(gate.runs)).toBe(1)
      const reused = yield* order("coffee", "order-1")
      expect(reused.status).toBe(409)
      expect(reused.body.error.code).toBe("idempotency_key_reused")
    }))
})
