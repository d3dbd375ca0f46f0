import type { SqlClient } from "@effect/sql"
import { makeFailureStreaks } from "@platform/rate-limit"
import { Duration } from "effect"

/**
 * Wrong-STK streaks in `silicon_login_streaks`, keyed by the Silicon's uuid (or a digest of an
 * unknown id, which locks the same way so a lock never tells that an id exists): ten wrong STKs
 * in a row lock sign-in for 60 seconds (spec 1, Lockouts).
 */
export const makeLoginStreaks = (sql: SqlClient.SqlClient) =>
  makeFailureStreaks(sql, { table: "silicon_login_streaks", failuresBeforeLock: 10, lock: Duration.seconds(60) })
