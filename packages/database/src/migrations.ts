import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { DatabaseError, describeCause } from "./database-error.ts"

/**
 * Migrations keyed `"<id>_<name>"` (e.g. `"0001_signing_keys"`), as `Migrator.fromRecord` expects.
 * An app merges the records of several packages; ids must be unique across them, and a
 * migration only runs if its id is above the highest one already applied.
 */
export type Migrations = Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>>

const migrationsTable = "effect_sql_migrations"

// Any fixed number works, as long as every process that migrates this database uses the same one.
const migrationsLockKey = 7_351_902_411

const validKey = /^\d+_.+$/

/**
 * Applies the pending migrations in one transaction that first takes a PostgreSQL advisory
 * lock, so that processes starting together on one database run them one after another:
 * the second one waits, then finds nothing left to do. Returns the migrations it applied.
 */
export const runMigrations = (
  migrations: Migrations
): Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, DatabaseError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const invalid = Object.keys(migrations).filter((key) => !validKey.test(key))
    if (invalid.length > 0) {
      return yield* new DatabaseError({
        message: `migration keys must look like "0001_name": ${invalid.join(", ")}`
      })
    }
    const sql = yield* SqlClient.SqlClient
    const applied = yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql`select pg_advisory_xact_lock(${migrationsLockKey})`
        // The Migrator probes for its table with a query that fails when the table is missing,
        // which would abort our transaction; creating it first (same shape) avoids that.
        yield* sql`create table if not exists ${sql(migrationsTable)} (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`
        return yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: migrationsTable })
      })
    )
    if (applied.length > 0) {
      yield* Effect.logInfo("applied database migrations").pipe(
        Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`).join(", "))
      )
    }
    return applied
  }).pipe(
    Effect.catchIf(
      (error) => error._tag !== "DatabaseError",
      (error) => Effect.fail(new DatabaseError({ message: `database migration failed: ${describeCause(error)}`, cause: error }))
    ),
    // The Migrator turns a failing migration into a defect; it is an ordinary start failure here.
    Effect.catchSomeDefect((defect) =>
      defect instanceof Migrator.MigrationError
        ? Option.some(
          Effect.fail(
            new DatabaseError({
              message: `${defect.message}: ${describeCause(defect.cause)}`,
              cause: defect
            })
          )
        )
        : Option.none()
    )
  )
