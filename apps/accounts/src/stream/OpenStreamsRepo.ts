import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface StreamLease {
  readonly id: string
  readonly receiver: string
  readonly openedAt: Date
  readonly leaseUntil: Date
}

/**
 * The open streams table (see OpenStreamsMigration): the per-receiver limit counted across processes.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class OpenStreamsRepo extends Effect.Service<OpenStreamsRepo>()("accounts/OpenStreamsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Records the stream when its receiver has fewer than `limit` streams with a live lease; false otherwise.
     * Opens of one receiver queue on an advisory lock so that two processes cannot both take the last place.
     */
    const open = (lease: StreamLease, limit: number): Effect.Effect<boolean> =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`event_streams:${lease.receiver}`}, 0))`
        yield* sql`DELETE FROM event_streams WHERE receiver = ${lease.receiver} AND lease_until <= ${lease.openedAt}`
        const [counted] = yield* sql<{ readonly open: number }>`
          SELECT count(*)::int AS open FROM event_streams WHERE receiver = ${lease.receiver}
        `
        if ((counted?.open ?? 0) >= limit) return false
        yield* sql`
          INSERT INTO event_streams (id, receiver, opened_at, lease_until)
          VALUES (${lease.id}, ${lease.receiver}, ${lease.openedAt}, ${lease.leaseUntil})
        `
        return true
      })).pipe(Effect.orDie)

    /** Extends a running stream's lease; puts its row back if it was taken for a stopped process's (a long stall). */
    const renew = (lease: StreamLease): Effect.Effect<void> =>
      sql`
        INSERT INTO event_streams (id, receiver, opened_at, lease_until)
        VALUES (${lease.id}, ${lease.receiver}, ${lease.openedAt}, ${lease.leaseUntil})
        ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until
      `.pipe(Effect.orDie, Effect.asVoid)

    const close = (id: string): Effect.Effect<void> =>
      sql`DELETE FROM event_streams WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)

    return { open, renew, close } as const
  })
}) {}
