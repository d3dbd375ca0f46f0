import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { MessageDelivery } from "../src/MessageDelivery.ts"
import { enqueueMessage } from "../src/MessageOutbox.ts"
import { sleepInRealTime } from "@platform/queue"
import { signInCode } from "./messages.ts"
import { twoProcessesOnOneDatabase } from "./outboxLayers.ts"

const twentyMessages = Array.from({ length: 20 }, (_, i) => signInCode(`user${i}@example.com`, String(100000 + i)))

describe("MessageDelivery across processes", () => {
  it.scopedLive("two workers on one database deliver each of 20 messages exactly once", () =>
    Effect.gen(function*() {
      const { sql, transport } = yield* twoProcessesOnOneDatabase(
        MessageDelivery.layer({ pollInterval: "5 millis", batchSize: 3 })
      )
      yield* Effect.forEach(twentyMessages, (message) => sql.withTransaction(enqueueMessage(message))).pipe(
        Effect.provideService(SqlClient.SqlClient, sql)
      )
      yield* transport.sent.pipe(
        Effect.repeat({ until: (sent) => sent.length >= 20, schedule: Schedule.spaced("10 millis") }),
        Effect.timeout("10 seconds")
      )
      yield* sleepInRealTime("300 millis")
      const sent = yield* transport.sent
      expect(sent).toHaveLength(20)
      expect(new Set(sent.map((message) => message.to)).size).toBe(20)
      expect(yield* transport.attempts).toBe(20)
    }))

  it.scopedLive("concurrent passes of two processes claim disjoint rows", () =>
    Effect.gen(function*() {
      const { deliveries, sql, transport } = yield* twoProcessesOnOneDatabase(
        MessageDelivery.layerWithoutWorker({ batchSize: 2 })
      )
      yield* Effect.forEach(twentyMessages, enqueueMessage).pipe(Effect.provideService(SqlClient.SqlClient, sql))
      const handled = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => deliveries[i % 2]!.deliverDue),
        { concurrency: "unbounded" }
      )
      expect(handled.reduce((sum, count) => sum + count, 0)).toBe(20)
      const sent = yield* transport.sent
      expect(new Set(sent.map((message) => message.to)).size).toBe(20)
      expect(yield* transport.attempts).toBe(20)
    }))
})
