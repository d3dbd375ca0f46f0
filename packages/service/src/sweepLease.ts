import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * For a service's migrations: the leases that let one process at a time run each retention sweep.
 * A lease is a row per sweep name, held until `held_until`; a crashed holder's lease simply runs out.
 */
export const SweepLeasesMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sweep_leases (
      name text PRIMARY KEY,
      held_until timestamptz NOT NULL
    )
  `
})

/**
 * Takes the lease of sweep `name` until `until` when no other process holds it at `at`, in one
 * statement: of several processes asking at once, exactly one gets it.
 */
export const claimSweepLease = (
  name: string,
  at: Date,
  until: Date
): Effect.Effect<boolean, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO sweep_leases (name, held_until) VALUES (${name}, ${until})
      ON CONFLICT (name) DO UPDATE SET held_until = EXCLUDED.held_until
      WHERE sweep_leases.held_until <= ${at}
      RETURNING name
    `.pipe(Effect.map((rows) => rows.length === 1)))
