import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { InMemoryTransport } from "../src/InMemoryTransport.ts"
import { MessageDelivery } from "../src/MessageDelivery.ts"
import { MessageOutbox } from "../src/MessageOutbox.ts"
import { signInCode } from "./messages.ts"
import { deliveryPassesOverFreshDatabase, outboxRows } from "./outboxLayers.ts"

/** Moves the TestClock to `atMillis` (from 0) and runs one delivery pass there. */
const passAt = (atMillis: number) =>
  Effect.gen(function*() {
    const now = yield* TestClock.currentTimeMillis
    yield* TestClock.adjust(`${atMillis - now} millis`)
    return yield* Effect.flatMap(MessageDelivery, (delivery) => delivery.deliverDue)
  })

describe("MessageDelivery retry schedule", () => {
  it.effect("a transport failing 3 times then succeeding delivers on the 4th attempt at 2 s, 6 s and 14 s", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(MessageOutbox, (outbox) => outbox.enqueue(signInCode("ada@example.com", "402917")))
      yield* InMemoryTransport.failNext(3)
      expect(yield* passAt(0)).toBe(1)
      expect(yield* outboxRows).toMatchObject([{
        status: "pending",
        attempts: 1,
        next_attempt_ms: 2_000,
        code: "402917",
        claimed: false,
        last_error: "simulated transport failure"
      }])
      expect(yield* passAt(1_999)).toBe(0)
      expect(yield* passAt(2_000)).toBe(1)
      expect(yield* outboxRows).toMatchObject([{ attempts: 2, next_attempt_ms: 6_000 }])
      expect(yield* passAt(5_999)).toBe(0)
      expect(yield* passAt(6_000)).toBe(1)
      expect(yield* outboxRows).toMatchObject([{ attempts: 3, next_attempt_ms: 14_000 }])
      expect(yield* passAt(13_999)).toBe(0)
      expect(yield* InMemoryTransport.sent).toEqual([])
      expect(yield* passAt(14_000)).toBe(1)
      expect((yield* InMemoryTransport.sent).map((message) => message.code)).toEqual(["402917"])
      expect(yield* InMemoryTransport.attempts).toBe(4)
      expect(yield* outboxRows).toEqual([{
        recipient: "ada@example.com",
        status: "sent",
        body: null,
        code: null,
        attempts: 4,
        next_attempt_ms: null,
        sent_ms: 14_000,
        claimed: false,
        last_error: null
      }])
      expect(yield* passAt(100_000)).toBe(0)
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))

  it.effect("gives up after 8 failed attempts: status failed, text and code blanked", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(MessageOutbox, (outbox) => outbox.enqueue(signInCode("ada@example.com")))
      yield* InMemoryTransport.failNext(100)
      const attemptTimes = [0, 2_000, 6_000, 14_000, 30_000, 62_000, 126_000, 254_000]
      for (const [index, at] of attemptTimes.entries()) {
        expect(yield* passAt(at)).toBe(1)
        const [row] = yield* outboxRows
        expect(row?.attempts).toBe(index + 1)
      }
      expect(yield* outboxRows).toEqual([{
        recipient: "ada@example.com",
        status: "failed",
        body: null,
        code: null,
        attempts: 8,
        next_attempt_ms: null,
        sent_ms: null,
        claimed: false,
        last_error: "simulated transport failure"
      }])
      expect(yield* passAt(10_000_000)).toBe(0)
      expect(yield* InMemoryTransport.attempts).toBe(8)
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))

  it.effect("honours a smaller maxAttempts", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(MessageOutbox, (outbox) => outbox.enqueue(signInCode("ada@example.com")))
      yield* InMemoryTransport.failNext(100)
      yield* passAt(0)
      yield* passAt(2_000)
      expect(yield* outboxRows).toMatchObject([{ status: "failed", attempts: 2, code: null }])
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase({ maxAttempts: 2 }))))

  it.effect("takes over a row whose claimer crashed once its 60-second claim expires", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Effect.flatMap(MessageOutbox, (outbox) => outbox.enqueue(signInCode("ada@example.com")))
      // A worker in another process claimed the row at 0 and died before recording anything.
      yield* sql`
        UPDATE outgoing_messages
        SET claimed_until = ${new Date(60_000)}, claim_token = '00000000-0000-4000-8000-000000000000'
      `
      expect(yield* passAt(0)).toBe(0)
      expect(yield* passAt(59_999)).toBe(0)
      expect(yield* passAt(60_000)).toBe(1)
      expect(yield* InMemoryTransport.sent).toHaveLength(1)
      expect(yield* outboxRows).toMatchObject([{ status: "sent", attempts: 1, sent_ms: 60_000, claimed: false }])
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))

  it.effect("sends due messages oldest first, at most a batch per pass", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      for (const index of [1, 2, 3]) {
        yield* outbox.enqueue(signInCode(`user${index}@example.com`))
        yield* TestClock.adjust("1 millis")
      }
      expect(yield* passAt(10)).toBe(2)
      expect(yield* passAt(10)).toBe(1)
      expect(yield* passAt(10)).toBe(0)
      expect(new Set((yield* InMemoryTransport.sent).map((message) => message.to))).toEqual(
        new Set(["user1@example.com", "user2@example.com", "user3@example.com"])
      )
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase({ batchSize: 2 }))))
})
