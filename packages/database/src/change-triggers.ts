import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

const identifier = /^[a-z_][a-z0-9_]*$/

/** A table whose changes are announced; an update that sets only `ignoring` columns is not a change. */
export type AnnouncedTable = string | { readonly table: string; readonly ignoring: ReadonlyArray<string> }

/**
 * A migration step: every row written to one of `tables` (inserted, updated, deleted; and a
 * truncate) sends a NOTIFY on `channel` when its transaction commits, whatever process wrote.
 * PostgreSQL folds a transaction's identical notifications into one. Row triggers, not statement
 * triggers: a statement that writes no row (an update whose WHERE matched nothing) is no change. What `CommittedChanges`
 * follows; a table added later to what a cache reads needs this step again in a new migration.
 *
 * A table may ignore columns that no cache reads but that are written often (a last-used time):
 * its trigger then fires on an update of any of its other columns, listed as they are when the
 * migration runs (a column added later needs the trigger made again).
 */
export const changeTriggers = (
  sql: SqlClient.SqlClient,
  channel: string,
  tables: ReadonlyArray<AnnouncedTable>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const announced = tables.map((table) => typeof table === "string" ? { table, ignoring: [] } : table)
    for (const name of [channel, ...announced.flatMap(({ ignoring, table }) => [table, ...ignoring])]) {
      if (!identifier.test(name)) return yield* Effect.dieMessage(`not a plain SQL name: ${name}`)
    }
    yield* sql.unsafe(`
      CREATE OR REPLACE FUNCTION notify_${channel}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${channel}', 'changed');
        RETURN NULL;
      END
      $$
    `)
    for (const { ignoring, table } of announced) {
      const updates = ignoring.length === 0 ? "UPDATE" : `UPDATE OF ${(yield* columnsOf(sql, table, ignoring)).join(", ")}`
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_notify_${channel}
        AFTER INSERT OR ${updates} OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION notify_${channel}()
      `)
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_truncate_notify_${channel}
        AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION notify_${channel}()
      `)
    }
  })

const columnsOf = (sql: SqlClient.SqlClient, table: string, ignoring: ReadonlyArray<string>) =>
  Effect.map(
    sql<{ readonly name: string }>`
      SELECT attname AS name FROM pg_attribute
      WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped
      ORDER BY attnum
    `,
    (columns) => columns.map((column) => column.name).filter((name) => !ignoring.includes(name))
  )
