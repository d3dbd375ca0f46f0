import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { foldSql } from "./AppId.ts"

/**
 * The apps area's columns on the catalogue:
 * - `app_secret_sha256`: the SHA-256 of the app secret (shown once at creation and rotation), sent to accounts at each sync.
 * - `app_id_fold`: the id folded for look-alikes (see AppId.ts), indexed.
 */
export const AppsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table apps add column app_secret_sha256 text`
  yield* sql.unsafe(`alter table apps add column app_id_fold text generated always as (${foldSql("app_id")}) stored`)
  yield* sql`create index apps_by_fold on apps (app_id_fold)`
})
