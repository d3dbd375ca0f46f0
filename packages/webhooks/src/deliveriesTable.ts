import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { createQueueTable, type QueueTable, queueTable } from "@platform/queue"
import type { Effect } from "effect"
import { DeliveryJob, KeyedDeliveryJob } from "./DeliveryJob.ts"

export type DeliveriesTable = QueueTable<DeliveryJob, typeof DeliveryJob.Encoded>
export type KeyedDeliveriesTable = QueueTable<KeyedDeliveryJob, typeof KeyedDeliveryJob.Encoded>
/** Either kind: what the worker and the delivery records work with. */
export type AnyDeliveriesTable = DeliveriesTable | KeyedDeliveriesTable

/** A keyed table's rows are deliveries with one more column: the queue's generic statements treat both alike. */
export const asPlainDeliveries = (deliveries: AnyDeliveriesTable): DeliveriesTable => deliveries as DeliveriesTable

/** A service's table of webhook deliveries, on the claimed-work queue. */
export const deliveriesTable = (table: string): DeliveriesTable =>
  queueTable({
    table,
    payload: DeliveryJob,
    doneStatus: "delivered",
    doneAtColumn: "delivered_at",
    eraseWhenFinished: []
  })

/** The same, each delivery naming the version of its receiver's secret it is signed with. */
export const keyedDeliveriesTable = (table: string): KeyedDeliveriesTable =>
  queueTable({
    table,
    payload: KeyedDeliveryJob,
    doneStatus: "delivered",
    doneAtColumn: "delivered_at",
    eraseWhenFinished: []
  })

/** For the service's migration: the deliveries table and its lookups by event and receiver. */
export const createDeliveriesTable = (
  deliveries: AnyDeliveriesTable
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  createQueueTable(
    asPlainDeliveries(deliveries),
    `event_id text NOT NULL, event_type text NOT NULL, event_occurred_at timestamptz NOT NULL,
     receiver text NOT NULL, body text NOT NULL, manual_replays integer NOT NULL DEFAULT 0 CHECK (manual_replays >= 0),
     ${deliveries.payloadColumns.includes("key_version") ? "key_version integer NOT NULL," : ""}
     UNIQUE (event_id, receiver)`
  )
