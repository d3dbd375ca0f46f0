import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Where IAM has read accounts' changes feed up to (one row). */
export const AccountChangesMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table accounts_feed_position (
        feed text primary key,
        cursor text not null,
        updated_at timestamptz not null
      )
    `
)
