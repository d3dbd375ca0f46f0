import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { HistoryItem, type HistoryKind, type HistoryPosition } from "./HistoryItem.ts"

const HistoryRow = Schema.Struct({
  kind: Schema.String,
  occurred_at: Schema.DateFromSelf,
  key: Schema.String,
  at_micros: Schema.String,
  details: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
const decodeRows = rowsDecoder(HistoryRow)
const decodeItem = Schema.decodeUnknown(HistoryItem)

/** A history entry with the key its position is made of. */
export interface KeyedHistoryItem {
  readonly item: HistoryItem
  /** occurred_at in microseconds since the epoch: positions keep the database's whole precision. */
  readonly atMicros: string
  readonly key: string
}

/**
 * The account's history, read from the records that are kept permanently (decisions.md, "History"):
 * sign-ins (`signins`), id changes (`account_id_changes`), decided custodian requests, memberships and
 * the membership events of `account_events`, revoked sign-ins, STK rotations and Silicon key moves.
 * Each source gives (kind, occurred_at, key, details); `key` is unique across sources and breaks ties.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class HistoryRepo extends Effect.Service<HistoryRepo>()("accounts/HistoryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const entries = (uuid: string) =>
      sql`
        SELECT 'signin' AS kind, s.created_at AS occurred_at, 'sgn:' || s.id AS key,
          jsonb_build_object('signin_id', s.id, 'client_id', s.client_id, 'app_name', ap.name, 'method', s.method,
            'client_label', s.client_label) AS details
        FROM signins s LEFT JOIN apps ap ON ap.app_id = s.client_id WHERE s.account_uuid = ${uuid}
        UNION ALL
        SELECT 'id_change', c.changed_at, 'idc:' || c.new_id, jsonb_build_object('old_id', c.old_id, 'new_id', c.new_id)
        FROM account_id_changes c WHERE c.account_uuid = ${uuid}
        UNION ALL
        SELECT 'custodian', r.decided_at, 'cus:' || r.id,
          jsonb_build_object('request_id', r.id, 'request_kind', r.kind, 'status', r.status, 'silicon_uuid', r.silicon_uuid,
            'from_uuid', r.from_uuid, 'to_uuid', r.to_uuid)
        FROM custodian_requests r
        WHERE r.decided_at IS NOT NULL AND (r.silicon_uuid = ${uuid} OR r.from_uuid = ${uuid} OR r.to_uuid = ${uuid})
        UNION ALL
        SELECT 'app_access', m.created_at, 'grant:' || m.app_id,
          jsonb_build_object('action', 'granted', 'app_id', m.app_id, 'app_name', ap.name)
        FROM memberships m JOIN apps ap ON ap.app_id = m.app_id AND ap.source <> 'first_party'
        WHERE m.account_uuid = ${uuid}
        UNION ALL
        SELECT 'app_access', e.occurred_at, 'evt:' || e.id,
          jsonb_build_object('action', substr(e.type, 12), 'app_id', e.data->>'app_id', 'app_name', ap.name)
        FROM account_events e LEFT JOIN apps ap ON ap.app_id = e.data->>'app_id'
        WHERE e.account_uuid = ${uuid} AND e.type IN ('membership.access_removed', 'membership.signed_out')
          AND e.data ? 'app_id'
        UNION ALL
        SELECT 'security', s.revoked_at, 'rev:' || s.id,
          jsonb_build_object('action', 'session_revoked', 'subject_id', s.id, 'reason', s.revoked_reason)
        FROM signins s WHERE s.account_uuid = ${uuid} AND s.revoked_at IS NOT NULL
        UNION ALL
        SELECT 'security', e.occurred_at, 'evt:' || e.id,
          jsonb_build_object('action', 'stk_rotated', 'subject_id', NULL, 'reason', NULL)
        FROM account_events e WHERE e.account_uuid = ${uuid} AND e.type = 'silicon.stk_rotated'
        UNION ALL
        SELECT 'security', k.created_at, 'key+:' || k.id,
          jsonb_build_object('action', 'key_added', 'subject_id', k.id, 'reason', k.name)
        FROM silicon_keys k WHERE k.silicon_uuid = ${uuid}
        UNION ALL
        SELECT 'security', k.revoked_at, 'key-:' || k.id,
          jsonb_build_object('action', 'key_revoked', 'subject_id', k.id, 'reason', k.name)
        FROM silicon_keys k WHERE k.silicon_uuid = ${uuid} AND k.revoked_at IS NOT NULL
      `

    /** Newest first, `limit + 1` entries after `after`, of one kind or all. */
    const page = (
      uuid: string,
      kind: HistoryKind | undefined,
      limit: number,
      after: Option.Option<typeof HistoryPosition.Type>
    ): Effect.Effect<ReadonlyArray<KeyedHistoryItem>> =>
      Effect.gen(function*() {
        const position = Option.match(after, {
          onNone: () => sql``,
          onSome: ([atMicros, key]) =>
            sql`AND (h.occurred_at, h.key) < (timestamptz 'epoch' + ${atMicros}::bigint * interval '1 microsecond', ${key})`
        })
        const rows = yield* sql`
          SELECT h.kind, h.occurred_at, h.key, h.details,
            ((extract(epoch FROM h.occurred_at) * 1000000)::bigint)::text AS at_micros FROM (${entries(uuid)}) h
          WHERE ${kind === undefined ? sql`true` : sql`h.kind = ${kind}`} ${position}
          ORDER BY h.occurred_at DESC, h.key DESC
          LIMIT ${limit + 1}
        `.pipe(Effect.flatMap(decodeRows))
        return yield* Effect.forEach(rows, (row) =>
          Effect.map(
            decodeItem({ ...row.details, kind: row.kind, occurred_at: row.occurred_at.toISOString() }),
            (item) => ({ item, atMicros: row.at_micros, key: row.key })
          ))
      }).pipe(Effect.orDie)

    return { page } as const
  })
}) {}
