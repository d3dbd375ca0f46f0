import { describe, expect, it } from "@effect/vitest"
import { webhookReceiver } from "@platform/testkit"
import { Duration, Effect, Ref, TestClock } from "effect"
import { deliveryRecords } from "../src/deliveryRecords.ts"
import { hmacSha256V1 } from "../src/signature.ts"
import { WebhookRoute } from "../src/WebhookRoute.ts"
import { deliveryRow, enqueueDelivery, freshDatabase, TestDeliveries, testWorker, WAITS, WINDOW } from "./support/testDeliveries.ts"

const header = (value: string | Array<string> | undefined) => (Array.isArray(value) ? value.join(",") : value ?? "")

/** The attempt times the spec's schedule gives, from an event at 0, before the window ends. */
const scheduledTimes = () => {
  const waits = WAITS.map((wait) => Duration.toMillis(Duration.decode(wait)))
  const times = [0]
  for (;;) {
    const next = times[times.length - 1]! + waits[Math.min(times.length, waits.length) - 1]!
    if (next >= Duration.toMillis(WINDOW)) return times
    times.push(next)
  }
}

const records = deliveryRecords(TestDeliveries, ["ping"])

describe("webhook delivery", () => {
  it.scoped("each attempt is signed with the receiver's current secret: a rotation mid-retry signs the next one with the new secret", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.answerWith((request) => ({ status: request.headers["x-test-timestamp"] === "0" ? 500 : 204 }))
      const secret = yield* Ref.make("whsec_old")
      const worker = yield* testWorker(() => Effect.map(Ref.get(secret), (key) => WebhookRoute.deliver(`${receiver.url}/hook`, key)))
      const { body, eventId, id } = yield* enqueueDelivery("app:one")
      yield* worker.runDue
      yield* Ref.set(secret, "whsec_new")
      yield* TestClock.adjust("10 seconds")
      yield* worker.runDue
      expect(yield* deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 2, last_error: null })
      const [first, second] = receiver.received()
      for (const request of [first!, second!]) {
        expect(request.method).toBe("POST")
        expect(request.path).toBe("/hook")
        expect(request.rawBody.toString("utf8")).toBe(body)
        expect(request.headers).toMatchObject({
          "content-type": "application/json",
          "user-agent": "TestWebhooks/1",
          "x-test-event-id": eventId,
          "x-test-event-type": "thing.changed",
          "x-test-delivery-id": id
        })
      }
      const verify = (request: typeof first, key: string) =>
        hmacSha256V1.verify(header(request!.headers["x-test-signature"]), key, header(request!.headers["x-test-timestamp"]), request!.rawBody.toString("utf8"))
      expect(header(second!.headers["x-test-timestamp"])).toBe("10")
      expect(verify(first, "whsec_old")).toBe(true)
      expect(verify(second, "whsec_new")).toBe(true)
      expect(verify(second, "whsec_old")).toBe(false)
    }).pipe(Effect.provide(freshDatabase())))

  it.scoped("the whole schedule: attempts at 0, 10 s, 40 s, 100 s, … then hourly until 72 hours, failed; a replay then delivers with the same ids", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.answerWith(() => ({ status: 503 }))
      const worker = yield* testWorker(() => Effect.succeed(WebhookRoute.deliver(`${receiver.url}/hook`, "whsec_k")))
      const { eventId, id } = yield* enqueueDelivery("app:one")
      const attemptedAt: Array<number> = []
      for (;;) {
        attemptedAt.push(yield* TestClock.currentTimeMillis)
        expect(yield* worker.runDue).toBe(1)
        const row = yield* deliveryRow(id)
        if (row.status !== "pending") break
        yield* TestClock.setTime(row.next_attempt_ms!)
      }
      const expected = scheduledTimes()
      expect(expected).toHaveLength(78)
      expect(attemptedAt).toEqual(expected)
      expect(receiver.received().map((request) => Number(header(request.headers["x-test-timestamp"])) * 1000))
        .toEqual(expected.map((at) => Math.floor(at / 1000) * 1000))
      expect(yield* deliveryRow(id)).toMatchObject({ status: "failed", attempts: 78, last_error: "answered HTTP 503", next_attempt_ms: null })

      receiver.answerWith(() => ({ status: 200 }))
      yield* TestClock.adjust("1 day")
      const now = new Date(yield* TestClock.currentTimeMillis)
      expect(yield* records.replay("app:one", { _tag: "Ids", ids: [id] }, now)).toEqual({ replayed: [id], skipped: [] })
      expect(yield* worker.runDue).toBe(1)
      expect(yield* deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 79, manual_replays: 1 })
      const last = receiver.received().at(-1)!
      expect(last.headers).toMatchObject({ "x-test-event-id": eventId, "x-test-delivery-id": id })
    }).pipe(Effect.provide(freshDatabase())))

  it.scoped("a redirect is a failed attempt, never followed", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.answerWith(() => ({ status: 302, headers: { location: "http://10.0.0.1/steal" } }))
      const worker = yield* testWorker(() => Effect.succeed(WebhookRoute.deliver(`${receiver.url}/hook`, "whsec_k")))
      const { id } = yield* enqueueDelivery("app:one")
      yield* worker.runDue
      expect(yield* deliveryRow(id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: "answered HTTP 302 (redirects are not followed)",
        next_attempt_ms: 10_000
      })
      expect(receiver.received()).toHaveLength(1)
    }).pipe(Effect.provide(freshDatabase())))

  it.scoped("a route that fails ends the delivery at once; a held one stays pending without attempts, then fails when the window ends", () =>
    Effect.gen(function*() {
      const worker = yield* testWorker((receiver) =>
        Effect.succeed(receiver === "gone" ? WebhookRoute.fail("the webhook URL was removed") : WebhookRoute.hold("the app is disabled"))
      )
      const gone = yield* enqueueDelivery("gone")
      const held = yield* enqueueDelivery("held")
      expect(yield* worker.runDue).toBe(2)
      expect(yield* deliveryRow(gone.id)).toMatchObject({ status: "failed", attempts: 1, last_error: "the webhook URL was removed" })
      expect(yield* deliveryRow(held.id)).toMatchObject({
        status: "pending",
        attempts: 0,
        last_error: "the app is disabled",
        next_attempt_ms: 60_000
      })
      yield* TestClock.setTime(Duration.toMillis(WINDOW) - 30_000)
      yield* worker.runDue
      expect(yield* deliveryRow(held.id)).toMatchObject({ status: "pending", next_attempt_ms: Duration.toMillis(WINDOW) })
      yield* TestClock.setTime(Duration.toMillis(WINDOW))
      yield* worker.runDue
      expect(yield* deliveryRow(held.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        last_error: "the app is disabled; held until the retry window ended"
      })
    }).pipe(Effect.provide(freshDatabase())))

  it.scoped("a held delivery goes out once its receiver is back within the window", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      const paused = yield* Ref.make(true)
      const worker = yield* testWorker(() =>
        Effect.map(Ref.get(paused), (isPaused) =>
          isPaused ? WebhookRoute.hold("the app is disabled") : WebhookRoute.deliver(`${receiver.url}/hook`, "whsec_k"))
      )
      const { id } = yield* enqueueDelivery("app:one")
      yield* worker.runDue
      yield* TestClock.adjust("70 hours")
      yield* worker.runDue
      expect(receiver.received()).toHaveLength(0)
      yield* Ref.set(paused, false)
      yield* TestClock.adjust("1 minute")
      yield* worker.runDue
      expect(yield* deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 1 })
      expect(receiver.received()).toHaveLength(1)
    }).pipe(Effect.provide(freshDatabase())))
})
