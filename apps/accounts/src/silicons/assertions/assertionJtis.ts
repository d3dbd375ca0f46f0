// Accepted assertion jtis. Database failures: SqlError is a defect (no caller can act on one).
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { now } from "@platform/service"

/**
 * Remembers an accepted assertion's jti until it expires; false when it is
 * remembered already (a replay), whichever process saw it first. A row whose
 * assertion has expired but which the sweep has not reached yet does not
 * count, so the answer never depends on when the sweep last ran.
 */
export const claimJti = (siliconUuid: string, jti: string, expiresAt: Date, at: Date): Effect.Effect<boolean, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO silicon_assertion_jtis (silicon_uuid, jti, expires_at)
      VALUES (${siliconUuid}, ${jti}, ${expiresAt})
      ON CONFLICT (silicon_uuid, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at
      WHERE silicon_assertion_jtis.expires_at <= ${at}
      RETURNING 1
    `.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)))

/** Forgets jtis whose assertions have expired (spec 1, Retention); returns how many. */
export const sweepAssertionJtis: Effect.Effect<number, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const at = yield* now
  const rows = yield* sql<{ readonly count: number }>`
    WITH deleted AS (DELETE FROM silicon_assertion_jtis WHERE expires_at <= ${at} RETURNING 1)
    SELECT count(*)::int AS count FROM deleted
  `.pipe(Effect.orDie)
  return rows[0]?.count ?? 0
})
