import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"
import { AccountStatus } from "../accounts/AccountRow.ts"
import type { FeedPosition } from "../stream/StreamCursor.ts"

const ChangeRow = Schema.Struct({
  txid: Schema.String,
  seq: Schema.String,
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  handle: Schema.NullOr(Schema.String),
  display_name: Schema.String,
  status: AccountStatus
})

export interface IdentityChangeRow {
  readonly position: FeedPosition
  readonly account: Omit<typeof ChangeRow.Type, "txid" | "seq">
}

const decodeRows = rowsDecoder(ChangeRow)

/**
 * The identity changes feed over `account_events` (EventPositionsMigration): the events that change
 * an account's id, display name or status, in commit order, each with the account as it is now.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class IdentityChangesRepo extends Effect.Service<IdentityChangesRepo>()("accounts/IdentityChangesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * At most `limit` changes after `after`, only from transactions older than every one still
     * running (as EventFeedReader reads `event_feed`), so that a change committed late by a
     * transaction that began earlier is never passed over.
     */
    const after = (position: FeedPosition, limit: number): Effect.Effect<ReadonlyArray<IdentityChangeRow>> =>
      sql`
        SELECT e.txid::text AS txid, e.seq::text AS seq, a.uuid, a.kind, a.handle, a.display_name, a.status
        FROM account_events e JOIN accounts a ON a.uuid = e.account_uuid
        WHERE e.type IN ('account.id_changed', 'account.updated', 'account.deleted', 'silicon.custodian.accepted')
          AND (e.type <> 'account.updated' OR e.data->'changed' @> '["display_name"]'::jsonb)
          AND (e.type <> 'silicon.custodian.accepted' OR e.data->>'request_kind' = 'initial')
          AND (e.txid, e.seq) > (${position.txid.toString()}::xid8, ${position.seq.toString()}::bigint)
          AND e.txid < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY e.txid, e.seq
        LIMIT ${limit}
      `.pipe(
        Effect.flatMap(decodeRows),
        Effect.orDie,
        Effect.map((rows) =>
          rows.map(({ txid, seq, ...account }) => ({ position: { txid: BigInt(txid), seq: BigInt(seq) }, account }))
        )
      )

    return { after } as const
  })
}) {}
