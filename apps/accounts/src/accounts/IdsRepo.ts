import { SqlClient } from "@effect/sql"
import { Data, Effect, Option } from "effect"
import { type AccountId, formatAccountId } from "./AccountId.ts"
import { IdTaken } from "./errors.ts"
import { SUGGESTION_COUNT, suggestionCandidates } from "./idSuggestions.ts"
import { now } from "@platform/service"

/** Whether an id can be given to a new owner now. */
export type IdAvailability = Data.TaggedEnum<{
  Free: { readonly id: AccountId }
  Taken: { readonly id: AccountId; readonly suggestions: ReadonlyArray<string> }
  Reserved: { readonly id: AccountId; readonly reservedUntil: Date; readonly suggestions: ReadonlyArray<string> }
}>
export const IdAvailability = Data.taggedEnum<IdAvailability>()

/**
 * Account ids: who holds a handle, the reservations a changed-away handle keeps for its previous
 * owner, and free ids to suggest instead of a taken one.
 *
 * Database failures: SqlError is a defect (no caller can act on one), except in the steps that run inside
 * their caller's transaction (`releaseReservation`, `reserve`), which leave it to that caller.
 */
export class IdsRepo extends Effect.Service<IdsRepo>()("accounts/IdsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Of `handles`, those no account holds and no live reservation keeps. */
    const freeAmong = (handles: ReadonlyArray<string>, at: Date) =>
      handles.length === 0 ? Effect.succeed([]) : sql<{ readonly handle: string }>`
        SELECT handle FROM accounts WHERE handle IN ${sql.in(handles)}
        UNION ALL
        SELECT handle FROM account_id_reservations WHERE handle IN ${sql.in(handles)} AND reserved_until > ${at}
      `.pipe(
        Effect.orDie,
        Effect.map((used) => {
          const held = new Set(used.map((row) => row.handle))
          return handles.filter((handle) => !held.has(handle))
        })
      )

    /** A few free ids of the same kind close to `id`. */
    const suggestionsFor = (id: AccountId, at: Date) =>
      suggestionCandidates(id.handle).pipe(
        Effect.flatMap((candidates) => freeAmong(candidates, at)),
        Effect.map((free) => free.slice(0, SUGGESTION_COUNT).map((handle) => formatAccountId({ kind: id.kind, handle })))
      )

    /** 409 id_taken with a few free ids of the same kind close to `id`. */
    const refuseTakenId = (id: AccountId, at: Date) =>
      Effect.flatMap(suggestionsFor(id, at), (suggestions) =>
        Effect.fail(
          new IdTaken({
            message: `The id ${formatAccountId(id)} is taken${
              suggestions.length > 0 ? `; free ids include ${suggestions.join(", ")}` : ""
            }.`,
            details: { suggestions }
          })
        ))

    /** Until when `handle` is kept for its previous owner; none when no live reservation keeps it. */
    const reservedUntil = (handle: string, at: Date) =>
      sql<{ readonly reserved_until: Date }>`
        SELECT reserved_until FROM account_id_reservations WHERE handle = ${handle} AND reserved_until > ${at}
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.reserved_until)))

    /** Whether `id` could be given to a new owner now, with a few free variants when not. */
    const idAvailability = (id: AccountId): Effect.Effect<IdAvailability> =>
      Effect.gen(function*() {
        const at = yield* now
        const held = yield* sql`SELECT 1 FROM accounts WHERE handle = ${id.handle}`.pipe(Effect.orDie)
        if (held.length > 0) return IdAvailability.Taken({ id, suggestions: yield* suggestionsFor(id, at) })
        const reserved = yield* reservedUntil(id.handle, at)
        if (Option.isSome(reserved)) {
          return IdAvailability.Reserved({ id, reservedUntil: reserved.value, suggestions: yield* suggestionsFor(id, at) })
        }
        return IdAvailability.Free({ id })
      })

    /** Inside the caller's transaction: the account's own reservation of `handle` is taken back. */
    const releaseReservation = (handle: string, accountUuid: string) =>
      Effect.asVoid(sql`DELETE FROM account_id_reservations WHERE handle = ${handle} AND account_uuid = ${accountUuid}`)

    /** Inside the caller's transaction: `handle` is kept for `accountUuid` until `until` (replacing any reservation of it). */
    const reserve = (handle: string, accountUuid: string, until: Date, at: Date) =>
      Effect.asVoid(sql`
        INSERT INTO account_id_reservations (handle, account_uuid, reserved_until, created_at)
        VALUES (${handle}, ${accountUuid}, ${until}, ${at})
        ON CONFLICT (handle) DO UPDATE SET account_uuid = EXCLUDED.account_uuid,
          reserved_until = EXCLUDED.reserved_until, created_at = EXCLUDED.created_at
      `)

    /** Retention: reservations 1 day after they end (spec 1, Retention). */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM account_id_reservations WHERE reserved_until < ${before} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )

    return { refuseTakenId, reservedUntil, idAvailability, releaseReservation, reserve, sweep } as const
  })
}) {}
