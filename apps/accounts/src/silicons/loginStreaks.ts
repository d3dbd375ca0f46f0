import type { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"

/** Ten wrong STKs in a row lock sign-in for 60 seconds (spec 1, Lockouts). */
export const WRONG_STKS_BEFORE_LOCK = 10
export const LOGIN_LOCK = Duration.seconds(60)

/**
 * Wrong-STK streaks in `silicon_login_streaks`, keyed by the Silicon's uuid
 * (or a digest of an unknown id, which locks the same way so a lock never
 * tells that an id exists).
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export const makeLoginStreaks = (sql: SqlClient.SqlClient) => {
  /** Until when sign-in is locked for `subject`, if it is now. */
  const lockedUntil = (subject: string, now: Date): Effect.Effect<Date | null> =>
    sql<{ readonly locked_until: Date }>`
      SELECT locked_until FROM silicon_login_streaks WHERE subject = ${subject} AND locked_until > ${now}
    `.pipe(Effect.orDie, Effect.map((rows) => rows[0]?.locked_until ?? null))

  /**
   * Records one attempt in one statement (concurrent attempts all count): a
   * right STK ends the streak; the tenth wrong one in a row locks, and the
   * streak starts again after the lock.
   */
  const record = (subject: string, right: boolean, now: Date): Effect.Effect<void> => {
    const lockEnd = new Date(now.getTime() + Duration.toMillis(LOGIN_LOCK))
    return sql`
      INSERT INTO silicon_login_streaks (subject, wrong_stks, locked_until, last_attempt_at)
      VALUES (${subject}, ${right ? 0 : 1}, NULL, ${now})
      ON CONFLICT (subject) DO UPDATE SET
        wrong_stks = CASE WHEN ${right} THEN 0
          WHEN silicon_login_streaks.wrong_stks + 1 >= ${WRONG_STKS_BEFORE_LOCK} THEN 0
          ELSE silicon_login_streaks.wrong_stks + 1 END,
        locked_until = CASE WHEN NOT ${right} AND silicon_login_streaks.wrong_stks + 1 >= ${WRONG_STKS_BEFORE_LOCK}
          THEN ${lockEnd}::timestamptz ELSE silicon_login_streaks.locked_until END,
        last_attempt_at = EXCLUDED.last_attempt_at
    `.pipe(Effect.orDie, Effect.asVoid)
  }

  /** Forgets streaks idle since before `cutoff` (and no longer locked); returns how many went. */
  const sweep = (cutoff: Date): Effect.Effect<number> =>
    sql`
      DELETE FROM silicon_login_streaks
      WHERE last_attempt_at < ${cutoff} AND (locked_until IS NULL OR locked_until < ${cutoff})
      RETURNING 1
    `.pipe(Effect.orDie, Effect.map((rows) => rows.length))

  return { lockedUntil, record, sweep } as const
}
