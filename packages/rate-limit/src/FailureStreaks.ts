import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect } from "effect"

/** A lockout on failures in a row (spec 1: ten wrong STKs in a row lock sign-in for 60 seconds). */
export interface FailureStreakPolicy {
  /** The service's table, made by `FailureStreaksMigration(table)`. */
  readonly table: string
  readonly failuresBeforeLock: number
  readonly lock: Duration.DurationInput
}

/**
 * The table of failure streaks: one row per subject (whatever the service locks on: a Silicon's
 * uuid, a digest of an unknown id) with its failures in a row and the end of its lock.
 */
export const FailureStreaksMigration = (table: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      CREATE TABLE ${sql(table)} (
        subject text PRIMARY KEY,
        failures integer NOT NULL CHECK (failures >= 0),
        locked_until timestamptz,
        last_attempt_at timestamptz NOT NULL
      )
    `.pipe(Effect.asVoid))

/**
 * Failure streaks in the policy's table, shared by every process on the database. A subject that
 * does not exist should be locked the same way as one that does, so a lock never tells which is which.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export const makeFailureStreaks = (sql: SqlClient.SqlClient, policy: FailureStreakPolicy) => {
  const table = sql(policy.table)
  const lockMillis = Duration.toMillis(Duration.decode(policy.lock))

  /** Until when `subject` is locked, if it is at `now`. */
  const lockedUntil = (subject: string, now: Date): Effect.Effect<Date | null> =>
    sql<{ readonly locked_until: Date }>`
      SELECT locked_until FROM ${table} WHERE subject = ${subject} AND locked_until > ${now}
    `.pipe(Effect.orDie, Effect.map((rows) => rows[0]?.locked_until ?? null))

  /**
   * Records one attempt in one statement (concurrent attempts all count): a success ends the
   * streak; the failure that completes a streak locks, and the next streak starts after the lock.
   */
  const record = (subject: string, succeeded: boolean, now: Date): Effect.Effect<void> => {
    const lockEnd = new Date(now.getTime() + lockMillis)
    return sql`
      INSERT INTO ${table} (subject, failures, locked_until, last_attempt_at)
      VALUES (${subject}, ${succeeded ? 0 : 1}, NULL, ${now})
      ON CONFLICT (subject) DO UPDATE SET
        failures = CASE WHEN ${succeeded} THEN 0
          WHEN ${table}.failures + 1 >= ${policy.failuresBeforeLock} THEN 0
          ELSE ${table}.failures + 1 END,
        locked_until = CASE WHEN NOT ${succeeded} AND ${table}.failures + 1 >= ${policy.failuresBeforeLock}
          THEN ${lockEnd}::timestamptz ELSE ${table}.locked_until END,
        last_attempt_at = EXCLUDED.last_attempt_at
    `.pipe(Effect.orDie, Effect.asVoid)
  }

  /** Forgets streaks idle since before `cutoff` and no longer locked; returns how many went. */
  const sweep = (cutoff: Date): Effect.Effect<number> =>
    sql`
      DELETE FROM ${table}
      WHERE last_attempt_at < ${cutoff} AND (locked_until IS NULL OR locked_until < ${cutoff})
      RETURNING 1
    `.pipe(Effect.orDie, Effect.map((rows) => rows.length))

  /** Forgets a subject's streak (its credential changed). */
  const forget = (subject: string): Effect.Effect<void> =>
    sql`DELETE FROM ${table} WHERE subject = ${subject}`.pipe(Effect.orDie, Effect.asVoid)

  return { lockedUntil, record, sweep, forget } as const
}

export type FailureStreaks = ReturnType<typeof makeFailureStreaks>
