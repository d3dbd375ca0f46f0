import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The STK streaks take the column names of @platform/rate-limit's failure streaks, which now keep them. */
export const LoginStreaksMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`ALTER TABLE silicon_login_streaks RENAME COLUMN wrong_stks TO failures`
)
