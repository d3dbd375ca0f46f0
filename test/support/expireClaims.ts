import type pg from "pg"

/**
 * Ends the leases a killed process held on queued rows, as the passing of their 60 seconds would: the next
 * claim then takes them. The lease's length is proved on the TestClock (packages/queue/test/claims.test.ts);
 * the process tests use this rather than wait it out.
 */
export const expireClaims = async (db: pg.Client, table: string, ids: ReadonlyArray<string>) => {
  await db.query(`UPDATE ${table} SET claimed_until = now() - interval '1 second' WHERE id = ANY($1::uuid[]) AND status = 'pending'`, [ids])
}
