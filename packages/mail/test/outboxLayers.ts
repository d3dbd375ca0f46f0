import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { InMemoryTransport } from "../src/InMemoryTransport.ts"
import { MessageDelivery, type MessageDeliveryOptions } from "../src/MessageDelivery.ts"
import { MessageOutbox } from "../src/MessageOutbox.ts"
import { MessageOutboxMigration } from "../src/MessageOutboxMigration.ts"
import type { MessageTransport } from "../src/MessageTransport.ts"

export const migrations = { "0001_outgoing_messages": MessageOutboxMigration }

/** Outbox, in-memory transport and a delivery worker over a fresh database (the SqlClient stays visible). */
export const deliveryWorkerOverFreshDatabase = (options: MessageDeliveryOptions = {}) =>
  MessageDelivery.layer(options).pipe(
    Layer.provideMerge(Layer.merge(MessageOutbox.layer, InMemoryTransport.layer)),
    Layer.provideMerge(TestDatabase.layer(migrations))
  )

/** The same without a worker: passes run only when the test calls `deliverDue`. */
export const deliveryPassesOverFreshDatabase = (options: MessageDeliveryOptions = {}) =>
  MessageDelivery.layerWithoutWorker(options).pipe(
    Layer.provideMerge(Layer.merge(MessageOutbox.layer, InMemoryTransport.layer)),
    Layer.provideMerge(TestDatabase.layer(migrations))
  )

const OutboxRow = Schema.Struct({
  recipient: Schema.String,
  status: Schema.Literal("pending", "sent", "failed"),
  body: Schema.NullOr(Schema.String),
  code: Schema.NullOr(Schema.String),
  attempts: Schema.Number,
  next_attempt_ms: Schema.NullOr(Schema.NumberFromString),
  sent_ms: Schema.NullOr(Schema.NumberFromString),
  claimed: Schema.Boolean,
  last_error: Schema.NullOr(Schema.String)
})

/** Every outbox row, oldest first, with times as epoch milliseconds. */
export const outboxRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`
    SELECT recipient, status, body, code, attempts,
      (extract(epoch FROM next_attempt_at) * 1000)::bigint::text AS next_attempt_ms,
      (extract(epoch FROM sent_at) * 1000)::bigint::text AS sent_ms,
      claimed_until IS NOT NULL AS claimed, last_error
    FROM outgoing_messages ORDER BY created_at, recipient
  `
  return yield* Schema.decodeUnknown(Schema.Array(OutboxRow))(rows)
}).pipe(Effect.orDie)

/** Waits (in real time) until the in-memory transport has accepted `count` messages. */
export const awaitSent = (count: number, within: Duration.DurationInput = "10 seconds") =>
  InMemoryTransport.sent.pipe(
    Effect.repeat({ until: (sent) => sent.length >= count, schedule: Schedule.spaced("10 millis") }),
    Effect.timeoutFail({ duration: within, onTimeout: () => new Error(`fewer than ${count} messages sent within ${Duration.format(Duration.decode(within))}`) }),
    Effect.orDie
  )

/**
 * Two server processes on one fresh database, each with its own pool and
 * MessageDelivery (with its worker, or passes only), sending through one shared
 * in-memory transport. Returns the first process's SqlClient for enqueueing.
 */
export const twoProcessesOnOneDatabase = (
  delivery: Layer.Layer<MessageDelivery, never, SqlClient.SqlClient | MessageTransport>
) =>
  Effect.gen(function*() {
    const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
    const transport = yield* Layer.build(InMemoryTransport.layer)
    const startProcess = Layer.build(
      delivery.pipe(Layer.provideMerge(openAsProcess), Layer.provide(Layer.succeedContext(transport)))
    )
    const first = yield* startProcess
    const second = yield* startProcess
    return {
      sql: Context.get(first, SqlClient.SqlClient),
      deliveries: [Context.get(first, MessageDelivery), Context.get(second, MessageDelivery)] as const,
      transport: Context.get(transport, InMemoryTransport)
    }
  }).pipe(Effect.orDie)
