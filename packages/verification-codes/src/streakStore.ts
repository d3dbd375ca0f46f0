import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"

/** Wrong codes in a row for one subject (mostly an address), and until when its codes are refused. */
export interface AddressStreak {
  readonly wrongCodes: number
  readonly lockedUntilMillis: number | null
}

const StreakRow = Schema.Struct({
  wrong_codes: Schema.Number,
  locked_until_ms: Schema.NullOr(Schema.Number)
})

const CountRow = Schema.Struct({ count: Schema.Number })

const decodeStreakRows = rowsDecoder(StreakRow)
const decodeCountRows = rowsDecoder(CountRow)

/**
 * SQL for `verification_address_streaks`, keyed by the digest of the streak's subject (an
 * address, or what a service's challenges stand for). Call `lock` inside a transaction: it
 * holds the subject's row until the end, so every check of a code for one subject (from any
 * process) runs one after another and no wrong code is lost.
 */
export const makeStreakStore = (sql: SqlClient.SqlClient) => {
  const lock = (subjectDigest: string, now: Date): Effect.Effect<AddressStreak, SqlError> =>
    Effect.gen(function*() {
      yield* sql`
        INSERT INTO verification_address_streaks (address_digest, wrong_codes, locked_until, last_attempt_at)
        VALUES (${subjectDigest}, 0, NULL, ${now})
        ON CONFLICT (address_digest) DO NOTHING
      `
      const rows = yield* sql`
        SELECT wrong_codes, (extract(epoch FROM locked_until) * 1000)::float8 AS locked_until_ms
        FROM verification_address_streaks
        WHERE address_digest = ${subjectDigest}
        FOR UPDATE
      `.pipe(Effect.flatMap(decodeStreakRows))
      // A sweep may delete the row between the two statements: that is a fresh streak.
      const row = rows[0]
      return row === undefined
        ? { wrongCodes: 0, lockedUntilMillis: null }
        : { wrongCodes: row.wrong_codes, lockedUntilMillis: row.locked_until_ms }
    })

  const save = (subjectDigest: string, streak: AddressStreak, now: Date): Effect.Effect<void, SqlError> => {
    const lockedUntil = streak.lockedUntilMillis === null ? null : new Date(streak.lockedUntilMillis)
    return Effect.asVoid(sql`
      INSERT INTO verification_address_streaks (address_digest, wrong_codes, locked_until, last_attempt_at)
      VALUES (${subjectDigest}, ${streak.wrongCodes}, ${lockedUntil}, ${now})
      ON CONFLICT (address_digest) DO UPDATE SET
        wrong_codes = EXCLUDED.wrong_codes,
        locked_until = EXCLUDED.locked_until,
        last_attempt_at = EXCLUDED.last_attempt_at
    `)
  }

  /** Forgets streaks whose last attempt and lock are both older than `cutoff`; returns how many went. */
  const deleteIdleBefore = (cutoff: Date): Effect.Effect<number, SqlError> =>
    sql`
      WITH deleted AS (
        DELETE FROM verification_address_streaks
        WHERE last_attempt_at < ${cutoff} AND (locked_until IS NULL OR locked_until < ${cutoff})
        RETURNING 1
      )
      SELECT count(*)::float8 AS count FROM deleted
    `.pipe(Effect.flatMap(decodeCountRows), Effect.map((rows) => rows[0]?.count ?? 0))

  return { lock, save, deleteIdleBefore } as const
}

export type StreakStore = ReturnType<typeof makeStreakStore>
