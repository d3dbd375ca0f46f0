import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const ReportsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table reports (
        id text primary key,
        message text not null,
        pr_url text,
        account_uuid text,
        created_at timestamptz not null
      )
    `
)
