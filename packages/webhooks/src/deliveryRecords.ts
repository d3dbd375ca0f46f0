import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { giveUpPending, requeue } from "@platform/queue"
import { Effect, Option, Schema } from "effect"
import { type AnyDeliveriesTable, asPlainDeliveries } from "./deliveriesTable.ts"

/** Deliveries one replay request may name or pick (spec 1: 100). */
export const MAX_REPLAY = 100

export const DeliveryStatus = Schema.Literal("pending", "delivered", "failed")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One delivery as its receiver's owner sees it: never its body or the secret. */
export const DeliveryRecord = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  manual_replays: Schema.Number,
  created_at: Schema.DateFromSelf,
  next_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  delivered_at: Schema.NullOr(Schema.DateFromSelf)
})
export type DeliveryRecord = typeof DeliveryRecord.Type

const decodeRecords = rowsDecoder(DeliveryRecord)
const decodeCandidates = rowsDecoder(Schema.Struct({ id: Schema.String, status: DeliveryStatus, event_type: Schema.String }))

/** Keyset position in a receiver's list (newest first): created_at (ISO) and id. */
export const DeliveryPosition = Schema.Tuple(Schema.String, Schema.String)

/** What to replay: named deliveries, or the receiver's oldest failed ones (since a time, if given). */
export type ReplaySelection =
  | { readonly _tag: "Ids"; readonly ids: ReadonlyArray<string> }
  | { readonly _tag: "Failed"; readonly since: Option.Option<Date> }

export interface ReplayOutcome {
  readonly replayed: ReadonlyArray<string>
  /** Named deliveries left as they were, and why: `not_found` (not this receiver's), `pending`, `not_replayable`. */
  readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: "not_found" | "pending" | "not_replayable" }>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A service's reads and changes of its deliveries by receiver. `notReplayable` lists event types
 * that are never replayed (test pings). Statements run on the caller's SqlClient.
 */
export const deliveryRecords = (deliveries: AnyDeliveriesTable, notReplayable: ReadonlyArray<string>) => {
  const columns = `id::text AS id, event_id, event_type, status, attempts, last_error, manual_replays, created_at,
    next_attempt_at, delivered_at`

  /** A receiver's deliveries, newest first, `limit + 1` rows (for pageOf), optionally of one status. */
  const list = (query: {
    readonly receiver: string
    readonly status: Option.Option<DeliveryStatus>
    readonly limit: number
    readonly after: Option.Option<typeof DeliveryPosition.Type>
  }): Effect.Effect<ReadonlyArray<DeliveryRecord>, SqlError, SqlClient.SqlClient> =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const status = Option.match(query.status, { onNone: () => sql``, onSome: (value) => sql`AND status = ${value}` })
      const after = Option.match(query.after, {
        onNone: () => sql``,
        onSome: ([createdAt, id]) => sql`AND (created_at, id::text) < (${new Date(createdAt)}, ${id})`
      })
      const rows = yield* sql`
        SELECT ${sql.literal(columns)} FROM ${sql(deliveries.table)}
        WHERE receiver = ${query.receiver} ${status} ${after}
        ORDER BY created_at DESC, id::text DESC
        LIMIT ${query.limit + 1}
      `
      return yield* decodeRecords(rows)
    })

  const candidates = (receiver: string, selection: ReplaySelection) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = sql(deliveries.table)
      if (selection._tag === "Ids") {
        const ids = selection.ids.filter((id) => UUID.test(id))
        if (ids.length === 0) return []
        return yield* decodeCandidates(yield* sql`
          SELECT id::text AS id, status, event_type FROM ${table} WHERE receiver = ${receiver} AND id IN ${sql.in(ids)}
        `)
      }
      const since = Option.match(selection.since, { onNone: () => sql``, onSome: (at) => sql`AND created_at >= ${at}` })
      const excluded = notReplayable.length === 0 ? sql`` : sql`AND event_type NOT IN ${sql.in(notReplayable)}`
      return yield* decodeCandidates(yield* sql`
        SELECT id::text AS id, status, event_type FROM ${table}
        WHERE receiver = ${receiver} AND status = 'failed' ${since} ${excluded}
        ORDER BY created_at, id LIMIT ${MAX_REPLAY}
      `)
    })

  /**
   * Sets the selected finished deliveries pending again, due now: same delivery id and event id,
   * sent to the receiver's current URL with its current secret, `manual_replays` counted.
   */
  const replay = (
    receiver: string,
    selection: ReplaySelection,
    now: Date
  ): Effect.Effect<ReplayOutcome, SqlError, SqlClient.SqlClient> =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql.withTransaction(Effect.gen(function*() {
        const found = yield* candidates(receiver, selection)
        const replayable = found.filter((row) => row.status !== "pending" && !notReplayable.includes(row.event_type))
        const replayed = yield* requeue(asPlainDeliveries(deliveries), replayable.map((row) => row.id), now)
        if (replayed.length > 0) {
          yield* sql`UPDATE ${sql(deliveries.table)} SET manual_replays = manual_replays + 1 WHERE id IN ${sql.in(replayed)}`
        }
        const byId = new Map(found.map((row) => [row.id.toLowerCase(), row]))
        const named = selection._tag === "Ids" ? selection.ids : []
        const skipped = named.flatMap((id): ReplayOutcome["skipped"] => {
          const row = byId.get(id.toLowerCase())
          if (row === undefined) return [{ id, reason: "not_found" }]
          if (replayed.includes(row.id)) return []
          return [{ id, reason: notReplayable.includes(row.event_type) ? "not_replayable" : "pending" }]
        })
        return { replayed, skipped }
      }))
    })

  /** The webhook was removed: its pending deliveries fail at once with `reason` (they stay replayable). */
  const failPending = (receiver: string, reason: string): Effect.Effect<number, SqlError, SqlClient.SqlClient> =>
    giveUpPending(asPlainDeliveries(deliveries), { column: "receiver", value: receiver }, reason)

  return { list, replay, failPending } as const
}
