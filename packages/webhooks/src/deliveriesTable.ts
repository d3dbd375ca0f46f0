import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { createQueueTable, type QueueTable, queueTable } from "@platform/queue"
import type { Effect } from "effect"
import { DeliveryJob } from "./DeliveryJob.ts"

export type DeliveriesTable = QueueTable<DeliveryJob, typeof DeliveryJob.Encoded>

/** A service's table of webhook deliveries, on the claimed-work queue. */
export const deliveriesTable = (table: string): DeliveriesTable =>
  queueTable({
    table,
    payload: DeliveryJob,
    doneStatus: "delivered",
    doneAtColumn: "delivered_at",
    eraseWhenFinished: []
  })

/** For the service's migration: the deliveries table and its lookups by event and receiver. */
export const createDeliveriesTable = (
  deliveries: DeliveriesTable
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  createQueueTable(
    deliveries,
    `event_id text NOT NULL, event_type text NOT NULL, event_occurred_at timestamptz NOT NULL,
     receiver text NOT NULL, body text NOT NULL, manual_replays integer NOT NULL DEFAULT 0 CHECK (manual_replays >= 0),
     UNIQUE (event_id, receiver)`
  )
