import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import type { LookupAll, OutboundPolicy } from "@platform/outbound"
import { enqueue } from "@platform/queue"
import { Clock, Duration, Effect, Schema } from "effect"
import { createDeliveriesTable, deliveriesTable } from "../../src/deliveriesTable.ts"
import { hmacSha256V1 } from "../../src/signature.ts"
import { makeWebhookWorker, type WebhookDeliveryOptions } from "../../src/WebhookDelivery.ts"
import type { WebhookRoute } from "../../src/WebhookRoute.ts"

export const TestDeliveries = deliveriesTable("test_deliveries")

export const freshDatabase = () =>
  TestDatabase.layer({ "0001_test_deliveries": createDeliveriesTable(TestDeliveries) })

export const HEADERS = {
  eventId: "X-Test-Event-Id",
  eventType: "X-Test-Event-Type",
  deliveryId: "X-Test-Delivery-Id",
  timestamp: "X-Test-Timestamp",
  signature: "X-Test-Signature"
} as const

export const WAITS = ["10 seconds", "30 seconds", "1 minute", "5 minutes", "15 minutes", "30 minutes", "1 hour"] as const
export const WINDOW = Duration.hours(72)

export const loopbackPolicy: OutboundPolicy = { production: false, allowLoopback: true }
export const strictPolicy: OutboundPolicy = { production: true, allowLoopback: false }

/** A worker with the spec's numbers, routing every receiver through `route`. */
export const testWorker = (
  route: (receiver: string) => Effect.Effect<WebhookRoute>,
  overrides: { readonly policy?: OutboundPolicy; readonly lookupAll?: LookupAll } = {}
) => {
  const options: WebhookDeliveryOptions<never> = {
    deliveries: TestDeliveries,
    headers: HEADERS,
    userAgent: "TestWebhooks/1",
    signing: hmacSha256V1,
    retryWaits: WAITS,
    retryWindow: WINDOW,
    answerTime: "2 seconds",
    route,
    policy: overrides.policy ?? loopbackPolicy,
    lookupAll: overrides.lookupAll
  }
  return makeWebhookWorker(options)
}

let counter = 0

/** A delivery of an event happening now (per Clock) for `receiver`. */
export const enqueueDelivery = (receiver: string, eventType = "thing.changed") =>
  Effect.gen(function*() {
    const occurredAt = new Date(yield* Clock.currentTimeMillis)
    const eventId = `evt_${++counter}`
    const body = JSON.stringify({ event_id: eventId, type: eventType, occurred_at: occurredAt.toISOString(), data: { n: counter } })
    const id = yield* enqueue(TestDeliveries, {
      event_id: eventId,
      event_type: eventType,
      event_occurred_at: occurredAt,
      receiver,
      body,
      manual_replays: 0
    })
    return { id, eventId, body }
  }).pipe(Effect.orDie)

const Row = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  manual_replays: Schema.Number,
  next_attempt_ms: Schema.NullOr(Schema.NumberFromString)
})

export const deliveryRow = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      SELECT id::text AS id, status, attempts, last_error, manual_replays,
        (extract(epoch FROM next_attempt_at) * 1000)::bigint::text AS next_attempt_ms
      FROM test_deliveries WHERE id = ${id}
    `
    return (yield* Schema.decodeUnknown(Schema.Array(Row))(rows))[0]!
  }).pipe(Effect.orDie)
