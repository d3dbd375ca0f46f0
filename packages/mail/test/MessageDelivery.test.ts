import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { InMemoryTransport } from "../src/InMemoryTransport.ts"
import { MessageDelivery } from "../src/MessageDelivery.ts"
import { MessageOutbox } from "../src/MessageOutbox.ts"
import { sleepInRealTime } from "@platform/queue"
import { signInCode } from "./messages.ts"
import { awaitSent, deliveryPassesOverFreshDatabase, deliveryWorkerOverFreshDatabase, outboxRows } from "./outboxLayers.ts"

describe("MessageDelivery worker", () => {
  it.live("delivers a message enqueued in a committed transaction once, within a second", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(outbox.enqueue(signInCode("ada@example.com", "402917")))
      yield* awaitSent(1, "1 second")
      yield* sleepInRealTime("600 millis")
      expect((yield* InMemoryTransport.sent).map((message) => message.code)).toEqual(["402917"])
      expect(yield* outboxRows).toMatchObject([
        { status: "sent", attempts: 1, body: null, code: null, claimed: false, last_error: null }
      ])
    }).pipe(Effect.provide(deliveryWorkerOverFreshDatabase())))

  it.live("never delivers a message enqueued in a rolled-back transaction", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(
        Effect.zipRight(outbox.enqueue(signInCode("rolled-back@example.com")), Effect.fail("state change refused"))
      ).pipe(Effect.ignore)
      yield* sql.withTransaction(outbox.enqueue(signInCode("committed-later@example.com")))
      yield* awaitSent(1)
      yield* sleepInRealTime("300 millis")
      expect((yield* InMemoryTransport.sent).map((message) => message.to)).toEqual(["committed-later@example.com"])
      expect((yield* outboxRows).map((row) => row.recipient)).toEqual(["committed-later@example.com"])
    }).pipe(Effect.provide(deliveryWorkerOverFreshDatabase({ pollInterval: "20 millis" }))))

  it.live("after a failure, retries on the schedule and delivers", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      yield* InMemoryTransport.failNext(1)
      yield* outbox.enqueue(signInCode("ada@example.com"))
      // The failed first attempt is recorded with the next one scheduled about 2 seconds later (not at once).
      yield* outboxRows.pipe(
        Effect.repeat({ until: (rows) => rows[0]?.attempts === 1 && !rows[0].claimed, schedule: Schedule.spaced("20 millis") }),
        Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("the first attempt was not recorded") }),
        Effect.orDie
      )
      expect(yield* outboxRows).toMatchObject([{ status: "pending", attempts: 1, claimed: false }])
      expect((yield* InMemoryTransport.sent).length).toBe(0)
      yield* awaitSent(1, "15 seconds")
      // The worker records the delivery just after the transport accepted it.
      yield* outboxRows.pipe(
        Effect.repeat({ until: (rows) => rows[0]?.status === "sent", schedule: Schedule.spaced("20 millis") }),
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("the delivery was not recorded") }),
        Effect.orDie
      )
      expect(yield* outboxRows).toMatchObject([{ status: "sent", attempts: 2 }])
    }).pipe(Effect.provide(deliveryWorkerOverFreshDatabase({ pollInterval: "20 millis" }))))

  it.live("stops when its layer's scope closes", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      yield* Effect.scoped(
        Effect.zipRight(
          Layer.build(MessageDelivery.layer({ pollInterval: "10 millis" })),
          Effect.zipRight(outbox.enqueue(signInCode("before@example.com")), awaitSent(1))
        )
      )
      yield* outbox.enqueue(signInCode("after@example.com"))
      yield* sleepInRealTime("200 millis")
      expect((yield* InMemoryTransport.sent).map((message) => message.to)).toEqual(["before@example.com"])
      expect((yield* outboxRows).map((row) => row.status)).toEqual(["sent", "pending"])
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))
})
