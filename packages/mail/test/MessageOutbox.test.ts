import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { MessageOutbox } from "../src/MessageOutbox.ts"
import { signInCode } from "./messages.ts"
import { deliveryPassesOverFreshDatabase, outboxRows } from "./outboxLayers.ts"

describe("MessageOutbox.enqueue", () => {
  it.effect("stores a pending message due at the Clock's now", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      yield* TestClock.adjust("42 seconds")
      yield* outbox.enqueue(signInCode("ada@example.com", "402917"))
      expect(yield* outboxRows).toEqual([{
        recipient: "ada@example.com",
        status: "pending",
        body: "Your sign-in code is 402917. It expires in 10 minutes.",
        code: "402917",
        attempts: 0,
        next_attempt_ms: 42_000,
        sent_ms: null,
        claimed: false,
        last_error: null
      }])
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))

  it.effect("joins the caller's transaction: kept when it commits, gone when it rolls back", () =>
    Effect.gen(function*() {
      const outbox = yield* MessageOutbox
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(outbox.enqueue(signInCode("committed@example.com")))
      const rolledBack = yield* sql.withTransaction(
        Effect.zipRight(outbox.enqueue(signInCode("rolled-back@example.com")), Effect.fail("state change refused"))
      ).pipe(Effect.flip)
      expect(rolledBack).toBe("state change refused")
      expect((yield* outboxRows).map((row) => row.recipient)).toEqual(["committed@example.com"])
    }).pipe(Effect.provide(deliveryPassesOverFreshDatabase())))
})
