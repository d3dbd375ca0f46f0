import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { sameMomentBatch } from "./sameMomentBatch.ts"
import type { FeedPosition } from "./StreamCursor.ts"

export interface FeedRead {
  readonly receiver: string
  /** Undefined: every type. */
  readonly types: ReadonlyArray<string> | undefined
  readonly after: FeedPosition
  readonly limit: number
}

export interface FeedEvent {
  readonly position: FeedPosition
  readonly type: string
  /** The envelope this receiver sees, as stored. */
  readonly body: unknown
}

/**
 * Reads a receiver's stream rows of `event_feed` in commit order (see EventFeedMigration): after a
 * position, and only from transactions older than every one still running, so that a row committed
 * late by a transaction that began earlier is never passed over. The streams of a process look at the
 * same tick, so their reads are gathered into one statement (one per tick, not one per stream).
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

    const readMany = (reads: ReadonlyArray<FeedRead>): Effect.Effect<ReadonlyArray<ReadonlyArray<FeedEvent>>> =>
      sql<{ readonly ord: number; readonly txid: string; readonly seq: string; readonly type: string; readonly body: unknown }>`
        SELECT r.ord::int AS ord, f.txid::text AS txid, f.seq::text AS seq, f.type, f.body
        FROM unnest(
          ${reads.map((read) => read.receiver)}::text[],
          ${reads.map((read) => read.after.txid.toString())}::text[],
          ${reads.map((read) => read.after.seq.toString())}::text[],
          ${reads.map((read) => read.types?.join(",") ?? null)}::text[],
          ${reads.map((read) => read.limit)}::int[]
        ) WITH ORDINALITY AS r(receiver, txid, seq, types, lim, ord)
        CROSS JOIN LATERAL (
          SELECT txid, seq, type, body
          FROM event_feed
          WHERE receiver = r.receiver AND stream
            AND (txid, seq) > (r.txid::xid8, r.seq::bigint)
            AND txid < pg_snapshot_xmin(pg_current_snapshot())
            AND (r.types IS NULL OR type = ANY (string_to_array(r.types, ',')))
          ORDER BY txid, seq
          LIMIT r.lim
        ) f
        ORDER BY r.ord, f.txid, f.seq
      `.pipe(
        Effect.orDie,
        Effect.map((rows) => {
          const answers = reads.map((): Array<FeedEvent> => [])
          for (const row of rows) {
            answers[row.ord - 1]!.push({
              position: { txid: BigInt(row.txid), seq: BigInt(row.seq) },
              type: row.type,
              body: typeof row.body === "string" ? JSON.parse(row.body) : row.body
            })
          }
          return answers
        })
      )

    const batchedRead = sameMomentBatch(readMany, yield* Effect.runtime<never>())

    /**
     * At most `limit` of the receiver's events after `after`. Reads of the same moment share one statement;
     * a read inside a transaction runs alone, in it.
     */
    const read = (
      receiver: string,
      types: ReadonlyArray<string> | undefined,
      after: FeedPosition,
      limit: number
    ): Effect.Effect<ReadonlyArray<FeedEvent>> =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) =>
        Option.isSome(transaction)
          ? Effect.map(readMany([{ receiver, types, after, limit }]), (answers) => answers[0]!)
          : batchedRead({ receiver, types, after, limit }))

    return { startPosition, read } as const
  })
}) {}
