import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { QueueTable } from "./QueueTable.ts"

/**
 * For a new queue's migration: creates its table with the state columns the queue works with
 * and `payloadColumns` (SQL column definitions, e.g. `url text NOT NULL, body text`), and the
 * index the claim reads. A finished row keeps no claim and no next attempt.
 */
export const createQueueTable = <A, I extends Readonly<Record<string, unknown>>>(
  queue: QueueTable<A, I>,
  payloadColumns: string
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = sql(queue.table)
    yield* sql`
      CREATE TABLE ${table} (
        id uuid PRIMARY KEY,
        ${sql.literal(payloadColumns)},
        status text NOT NULL CHECK (status IN ('pending', ${sql.literal(`'${queue.doneStatus}'`)}, 'failed')),
        attempts integer NOT NULL CHECK (attempts >= 0),
        next_attempt_at timestamptz,
        claimed_until timestamptz,
        claim_token uuid,
        created_at timestamptz NOT NULL,
        ${sql(queue.doneAtColumn)} timestamptz,
        last_error text,
        CHECK (status <> 'pending' OR next_attempt_at IS NOT NULL),
        CHECK (status = 'pending' OR claimed_until IS NULL)
      )
    `
    yield* sql`
      CREATE INDEX ${sql(`${queue.table}_due_idx`)} ON ${table} (next_attempt_at) WHERE status = 'pending'
    `
  })
