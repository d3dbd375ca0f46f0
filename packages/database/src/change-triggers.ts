import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

const identifier = /^[a-z_][a-z0-9_]*$/

/**
 * A migration step: every statement that writes to one of `tables` (insert, update, delete,
 * truncate) sends a NOTIFY on `channel` when its transaction commits, whatever process wrote.
 * PostgreSQL folds a transaction's identical notifications into one. What `CommittedChanges`
 * follows; a table added later to what a cache reads needs this step again in a new migration.
 */
export const changeTriggers = (
  sql: SqlClient.SqlClient,
  channel: string,
  tables: ReadonlyArray<string>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    for (const name of [channel, ...tables]) {
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
    for (const table of tables) {
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_notify_${channel}
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION notify_${channel}()
      `)
    }
  })
