import { SqlClient } from "@effect/sql"
import { createDeliveriesTable } from "@platform/webhooks"
import { Effect } from "effect"
import { WebhookDeliveries } from "./webhookDeliveries.ts"

/**
 * What each receiver hears, written in the transaction of the change:
 *
 * - `event_feed`: one row per event and receiver (`receiver` as in `webhookReceiver`), `event_id` unique
 *   per event and receiver, `body` the envelope that receiver sees. The event stream reads it in commit
 *   order: a row is read only once its transaction `txid` is below every running transaction's
 *   (`pg_snapshot_xmin`), and a reader's position is (`txid`, `seq`), so a row that commits late is never
 *   skipped behind a position already passed. `stream` says whether the stream subscription took it.
 * - `webhook_deliveries`: the queue of webhook attempts (`@platform/webhooks`).
 */
export const EventFeedMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE event_feed (
      seq bigserial NOT NULL,
      txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      event_id text PRIMARY KEY,
      source_event_id text NOT NULL REFERENCES account_events (id),
      receiver text NOT NULL,
      type text NOT NULL,
      occurred_at timestamptz NOT NULL,
      body jsonb NOT NULL,
      stream boolean NOT NULL
    )
  `
  yield* sql`CREATE INDEX event_feed_by_receiver ON event_feed (receiver, txid, seq) WHERE stream`
  yield* sql`CREATE INDEX event_feed_by_time ON event_feed (occurred_at)`
  yield* createDeliveriesTable(WebhookDeliveries)
  yield* sql`CREATE INDEX webhook_deliveries_by_receiver ON webhook_deliveries (receiver, created_at DESC)`
})
