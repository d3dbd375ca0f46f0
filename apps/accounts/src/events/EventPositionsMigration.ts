import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A commit-order position for every `account_events` row, as `event_feed` has one per receiver
 * (EventFeedMigration): `txid` the writing transaction, `seq` the order within it. The identity
 * changes feed reads the rows of transactions older than every running one, after a (`txid`, `seq`)
 * position, so a row committed late is never passed over. Rows written before this migration share
 * its transaction id.
 */
export const EventPositionsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE account_events
      ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      ADD COLUMN seq bigserial NOT NULL
  `
  // Only the types that change an account's id, display name or status: the feed reads no others.
  yield* sql`
    CREATE INDEX account_events_identity_changes ON account_events (txid, seq)
    WHERE type IN ('account.id_changed', 'account.updated', 'account.deleted', 'silicon.custodian.accepted')
  `
})
