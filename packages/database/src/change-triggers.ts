import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

const identifier = /^[a-z_][a-z0-9_]*$/

/**
 * A table whose changes are announced. An update that changes only `ignoring` columns is not a
 * change; with `inserts: false` a new row is not one either, which is exact only for caches that
 * never keep an absent row of that table (they look rows up by keys that exist before anyone asks).
 */
export type AnnouncedTable = string | {
  readonly table: string
  readonly ignoring?: ReadonlyArray<string>
  readonly inserts?: boolean
}

/**
 * A migration step: every row written to one of `tables` (inserted, updated, deleted; and a
 * truncate) sends a NOTIFY on `channel` when its transaction commits, whatever process wrote:
 * what `CommittedChanges` follows. PostgreSQL folds a transaction's identical notifications into
 * one. Row triggers, not statement triggers: a statement that writes no row (an update whose WHERE
 * matched nothing) is no change. A table added later to what a cache reads needs this step again
 * in a new migration.
 *
 * An update is a change only when it changes a value. A table may ignore columns that no cache
 * reads but that are written often (a last-used time): its update trigger then looks at its other
 * columns, listed as they are when the migration runs (a column added later needs the trigger made
 * again); a table that ignores none compares whole rows, new columns included.
 */
export const changeTriggers = (
  sql: SqlClient.SqlClient,
  channel: string,
  tables: ReadonlyArray<AnnouncedTable>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const announced = tables.map((table) =>
      typeof table === "string"
        ? { table, ignoring: [], inserts: true }
        : { table: table.table, ignoring: table.ignoring ?? [], inserts: table.inserts ?? true }
    )
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
    for (const { ignoring, inserts, table } of announced) {
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_notify_${channel}
        AFTER ${inserts ? "INSERT OR DELETE" : "DELETE"} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION notify_${channel}()
      `)
      // An update counts when it changes a value (checked before any function is called): a touch that
      // rewrites the same status, or sets only ignored columns, is no change.
      const columns = ignoring.length === 0 ? [] : yield* columnsOf(sql, table, ignoring)
      const updated = ignoring.length === 0
        ? "UPDATE ON " + table + " FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW)"
        : `UPDATE OF ${columns.join(", ")} ON ${table} FOR EACH ROW WHEN ((${
          columns.map((column) => `OLD.${column}`).join(", ")
        }) IS DISTINCT FROM (${columns.map((column) => `NEW.${column}`).join(", ")}))`
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_update_notify_${channel}
        AFTER ${updated} EXECUTE FUNCTION notify_${channel}()
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
