import type { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Runs `effect` in a transaction of `sql` (a savepoint inside one already open): its statements
 * commit together or not at all. A failure to begin or commit is a defect, as every database
 * failure a caller cannot act on is (docs/architecture.md, "Database failures").
 */
export const inTransaction = (sql: SqlClient.SqlClient) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  Effect.catchIf(
    sql.withTransaction(effect),
    (error: E | SqlError): error is SqlError => error instanceof SqlError,
    Effect.die
  ) as Effect.Effect<A, Exclude<E, SqlError>, R>
