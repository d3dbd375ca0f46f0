import { describe, expect, it } from "@effect/vitest"
import { webhookReceiver } from "@platform/testkit"
import { Effect, Option, TestClock } from "effect"
import { deliveryRecords } from "../src/deliveryRecords.ts"
import { WebhookRoute } from "../src/WebhookRoute.ts"
import { deliveryRow, enqueueDelivery, freshDatabase, TestDeliveries, testWorker } from "./support/testDeliveries.ts"

const records = deliveryRecords(TestDeliveries, ["ping"])
const failEverything = testWorker(() => Effect.succeed(WebhookRoute.fail("no secret")))

describe("delivery records", () => {
  it.effect("replay by ids: failed and delivered ones again, pings never, pending and others' left, each said why", () =>
    Effect.gen(function*() {
      const worker = yield* failEverything
      const failed = yield* enqueueDelivery("mine")
      const ping = yield* enqueueDelivery("mine", "ping")
      yield* worker.runDue
      const pending = yield* enqueueDelivery("mine")
      const others = yield* enqueueDelivery("theirs")
      const outcome = yield* records.replay(
        "mine",
        { _tag: "Ids", ids: [failed.id, ping.id, pending.id, others.id, "nonsense"] },
        new Date(5_000)
      )
      expect(outcome).toEqual({
        replayed: [failed.id],
        skipped: [
          { id: ping.id, reason: "not_replayable" },
          { id: pending.id, reason: "pending" },
          { id: others.id, reason: "not_found" },
          { id: "nonsense", reason: "not_found" }
        ]
      })
      expect(yield* deliveryRow(failed.id)).toMatchObject({ status: "pending", manual_replays: 1, next_attempt_ms: 5_000 })
      expect(yield* deliveryRow(ping.id)).toMatchObject({ status: "failed", manual_replays: 0 })
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("replay of status failed takes the oldest, since a time when given, never pings", () =>
    Effect.gen(function*() {
      const worker = yield* failEverything
      const old = yield* enqueueDelivery("mine")
      yield* TestClock.adjust("1 hour")
      const recent = yield* enqueueDelivery("mine")
      yield* enqueueDelivery("mine", "ping")
      yield* worker.runDue
      const since = yield* records.replay("mine", { _tag: "Failed", since: Option.some(new Date(3_600_000)) }, new Date(3_600_000))
      expect(since).toEqual({ replayed: [recent.id], skipped: [] })
      yield* worker.runDue
      const all = yield* records.replay("mine", { _tag: "Failed", since: Option.none() }, new Date(3_600_000))
      expect(all.replayed).toEqual([old.id, recent.id])
      expect(yield* deliveryRow(recent.id)).toMatchObject({ manual_replays: 2 })
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("the list pages newest first, by status; failPending ends a receiver's pending deliveries", () =>
    Effect.gen(function*() {
      const ids: Array<string> = []
      for (let n = 0; n < 3; n++) {
        ids.push((yield* enqueueDelivery("mine")).id)
        yield* TestClock.adjust("1 second")
      }
      yield* enqueueDelivery("theirs")
      const first = yield* records.list({ receiver: "mine", status: Option.none(), limit: 2, after: Option.none() })
      expect(first.map((row) => row.id)).toEqual([ids[2], ids[1], ids[0]])
      const next = yield* records.list({
        receiver: "mine",
        status: Option.none(),
        limit: 2,
        after: Option.some([first[1]!.created_at.toISOString(), first[1]!.id])
      })
      expect(next.map((row) => row.id)).toEqual([ids[0]])
      expect(first[0]).toMatchObject({ status: "pending", attempts: 0, last_error: null, manual_replays: 0, event_type: "thing.changed" })
      expect(yield* records.failPending("mine", "the webhook URL was removed")).toBe(3)
      const failed = yield* records.list({ receiver: "mine", status: Option.some("failed"), limit: 10, after: Option.none() })
      expect(failed.map((row) => row.last_error)).toEqual(Array(3).fill("the webhook URL was removed"))
      expect(yield* records.list({ receiver: "theirs", status: Option.some("pending"), limit: 10, after: Option.none() })).toHaveLength(1)
    }).pipe(Effect.provide(freshDatabase())))

  it.live("two workers on one database never deliver one delivery twice", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.answerWith(() => ({ status: 200, delayMillis: 20 }))
      const route = () => Effect.succeed(WebhookRoute.deliver(`${receiver.url}/hook`, "whsec_k"))
      const workers = [yield* testWorker(route), yield* testWorker(route)]
      const ids = yield* Effect.forEach(Array.from({ length: 40 }, (_, n) => n), (n) => Effect.map(enqueueDelivery(`r${n % 3}`), (d) => d.id))
      const drain = (worker: (typeof workers)[number]) =>
        Effect.iterate(1, { while: (ran) => ran > 0, body: () => worker.runDue }).pipe(Effect.orDie)
      yield* Effect.all(workers.map(drain), { concurrency: "unbounded" })
      yield* Effect.all(workers.map(drain), { concurrency: "unbounded" })
      const delivered = receiver.received().map((request) => String(request.headers["x-test-delivery-id"]))
      expect([...delivered].sort()).toEqual([...ids].sort())
    }).pipe(Effect.scoped, Effect.provide(freshDatabase())))
})
