import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The account event outbox: every state change that apps or a Silicon's
 * webhook must hear about writes one row here in the transaction that makes
 * the change. Delivery (webhooks, the stream) reads from it later; nothing is
 * lost if the process stops between the change and the delivery.
 */
export const EventsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      occurred_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )
  `
  yield* sql`CREATE INDEX account_events_by_account ON account_events (account_uuid, occurred_at)`
  yield* sql`CREATE INDEX account_events_by_time ON account_events (occurred_at)`
})
