import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { HandleTaken } from "../accounts/AccountsRepo.ts"
import { violatedConstraint } from "@platform/database"

/**
 * The moves of an account's handle and their permanent record (`account_id_changes`).
 *
 * Every step runs inside its caller's transaction and leaves SqlError to that caller, except a
 * handle another account holds (HandleTaken), refused in a savepoint so the transaction survives.
 */
export class IdChangesRepo extends Effect.Service<IdChangesRepo>()("accounts/IdChangesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The account's current handle, its row locked until the transaction ends; none for an unknown uuid. */
    const lockHandle = (uuid: string) =>
      Effect.map(
        sql<{ readonly handle: string | null }>`SELECT handle FROM accounts WHERE uuid = ${uuid} FOR UPDATE`,
        (rows) => rows[0]
      )

    /** When the account changed its id after `since`, oldest first. */
    const changedSince = (uuid: string, since: Date) =>
      Effect.map(
        sql<{ readonly changed_at: Date }>`
          SELECT changed_at FROM account_id_changes WHERE account_uuid = ${uuid} AND changed_at > ${since}
          ORDER BY changed_at
        `,
        (rows) => rows.map((row) => row.changed_at)
      )

    /** The account takes `handle`; HandleTaken when another account holds it. */
    const moveHandle = (uuid: string, handle: string, at: Date): Effect.Effect<void, HandleTaken | SqlError> =>
      sql.withTransaction(sql`
        UPDATE accounts SET handle = ${handle}, updated_at = ${at}, version = version + 1 WHERE uuid = ${uuid}
      `).pipe(
        Effect.asVoid,
        Effect.catchTag("SqlError", (error): Effect.Effect<never, SqlError | HandleTaken> =>
          violatedConstraint(error) === "accounts_handle_key" ? Effect.fail(new HandleTaken()) : Effect.fail(error))
      )

    const record = (uuid: string, oldId: string, newId: string, at: Date) =>
      Effect.asVoid(sql`
        INSERT INTO account_id_changes (account_uuid, old_id, new_id, changed_at)
        VALUES (${uuid}, ${oldId}, ${newId}, ${at})
      `)

    return { lockHandle, changedSince, moveHandle, record } as const
  })
}) {}
