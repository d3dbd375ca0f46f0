import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { FeedPosition } from "./StreamCursor.ts"

export interface FeedEvent {
  readonly position: FeedPosition
  readonly type: string
  /** The envelope this receiver sees, as stored. */
  readonly body: unknown
}

/**
 * Reads a receiver's stream rows of `event_feed` in commit order (see EventFeedMigration): after a
 * position, and only from transactions older than every one still running, so that a row committed
 * late by a transaction that began earlier is never passed over.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class EventFeedReader extends Effect.Service<EventFeedReader>()("accounts/EventFeedReader", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Where a stream without Last-Event-ID starts: everything not yet settled at this moment, and what follows. */
    const startPosition: Effect.Effect<FeedPosition> = sql<{ readonly xmin: string }>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
    `.pipe(Effect.orDie, Effect.map((rows) => ({ txid: BigInt(rows[0]!.xmin), seq: 0n })))

    const read = (
      receiver: string,
      types: ReadonlyArray<string> | undefined,
      after: FeedPosition,
      limit: number
    ): Effect.Effect<ReadonlyArray<FeedEvent>> =>
      sql<{ readonly txid: string; readonly seq: string; readonly type: string; readonly body: unknown }>`
        SELECT txid::text AS txid, seq::text AS seq, type, body
        FROM event_feed
        WHERE receiver = ${receiver} AND stream
          AND (txid, seq) > (${after.txid.toString()}::xid8, ${after.seq.toString()}::bigint)
          AND txid < pg_snapshot_xmin(pg_current_snapshot())
          ${types === undefined ? sql`` : sql`AND type IN ${sql.in(types)}`}
        ORDER BY txid, seq
        LIMIT ${limit}
      `.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row) => ({
            position: { txid: BigInt(row.txid), seq: BigInt(row.seq) },
            type: row.type,
            body: typeof row.body === "string" ? JSON.parse(row.body) : row.body
          }))
        )
      )

    return { startPosition, read } as const
  })
}) {}
