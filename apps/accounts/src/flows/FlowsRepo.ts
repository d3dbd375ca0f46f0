import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { FlowRow } from "./FlowRow.ts"
import { FlowState } from "./FlowState.ts"
import { rowsDecoder } from "@platform/database"

export type { FlowRow } from "./FlowRow.ts"

const decodeRows = rowsDecoder(FlowRow)
const encodeState = (state: FlowState) => JSON.stringify(Schema.encodeSync(FlowState)(state))

/**
 * Hosted flows; each move is a compare-and-set on `version`. The `step` column repeats the state's step for SQL readers.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class FlowsRepo extends Effect.Service<FlowsRepo>()("accounts/FlowsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (row: Omit<FlowRow, "version">): Effect.Effect<void> =>
      sql`
        INSERT INTO flows (id, cookie_hash, app_id, step, state, version, created_at, expires_at, updated_at)
        VALUES (${row.id}, ${row.cookie_hash}, ${row.app_id}, ${row.state.step._tag}, ${encodeState(row.state)}::jsonb, 1,
                ${row.created_at}, ${row.expires_at}, ${row.created_at})
      `.pipe(Effect.orDie, Effect.asVoid)

    const find = (id: string): Effect.Effect<Option.Option<FlowRow>> =>
      sql`
        SELECT id, cookie_hash, app_id, step, state, version, created_at, expires_at FROM flows WHERE id = ${id}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows), Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Saves a move made from `version`; false when another move got there first. */
    const save = (id: string, version: number, state: FlowState, at: Date): Effect.Effect<boolean> =>
      sql`
        UPDATE flows SET step = ${state.step._tag}, state = ${encodeState(state)}::jsonb, version = version + 1, updated_at = ${at}
        WHERE id = ${id} AND version = ${version}
        RETURNING id
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

    /** Retention: flows 1 day after expiry (spec 1, Retention). */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM flows WHERE expires_at < ${before} RETURNING 1`.pipe(Effect.orDie, Effect.map((rows) => rows.length))

    return { insert, find, save, sweep } as const
  })
}) {}
