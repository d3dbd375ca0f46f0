import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { uuidAt } from "./uuidPermutation.ts"

const AllocatedRow = Schema.Struct({ allocated: Schema.NumberFromString })
const decodeRows = Schema.decodeUnknown(Schema.Array(AllocatedRow))

/**
 * The next account uuid. Run it inside the transaction that inserts the
 * account: the counter row stays locked until that transaction ends, so
 * allocations are serialized across every process, a rolled-back creation
 * gives its number back (no 3-character value is skipped), and a committed
 * one is never handed out again, whatever happens to the account later.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export const allocateUuid = (sql: SqlClient.SqlClient): Effect.Effect<string> =>
  Effect.gen(function*() {
    const rows = yield* sql`
      UPDATE account_uuid_allocator SET next_index = next_index + 1
      RETURNING (next_index - 1)::text AS allocated
    `.pipe(Effect.flatMap(decodeRows), Effect.orDie)
    const [row] = rows
    if (row === undefined) return yield* Effect.dieMessage("account_uuid_allocator has no row")
    return yield* Effect.try(() => uuidAt(row.allocated)).pipe(Effect.orDie)
  })
