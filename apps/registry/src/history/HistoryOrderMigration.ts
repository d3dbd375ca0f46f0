import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * History items written in one millisecond (a change and its consequences, in one transaction) keep the order they
 * were written in: a number from an identity column breaks the tie, where the random ids did not.
 */
export const HistoryOrderMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table app_history add column position bigint generated always as identity`
  yield* sql`drop index app_history_of_app`
  yield* sql`create index app_history_of_app on app_history (app_id, at, position)`
})
