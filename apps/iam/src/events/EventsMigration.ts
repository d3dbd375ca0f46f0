import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `iam_events`: the outbox of IAM's webhooks, one row per change, written in the transaction of
 * the change (decisions.md, "The events outbox"). An event belongs to one aggregate (an
 * organization) at one version of it; `data` holds the changed fields and the state at that
 * version, never a token or a credential. A reader goes in commit order: a row is settled once its
 * `txid` is below every running transaction's (`pg_snapshot_xmin`), and a position is
 * (`txid`, `seq`), so a row committed late is never skipped.
 */
export const EventsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table iam_events (
      id text primary key,
      seq bigserial not null,
      txid xid8 not null default pg_current_xact_id(),
      type text not null,
      aggregate_type text not null,
      aggregate_id text not null,
      aggregate_version integer not null check (aggregate_version > 0),
      actor_uuid text,
      occurred_at timestamptz not null,
      data jsonb not null,
      unique (aggregate_type, aggregate_id, aggregate_version)
    )
  `
  yield* sql`create index iam_events_commit_order on iam_events (txid, seq)`
  yield* sql`create index iam_events_by_time on iam_events (occurred_at)`
})
