import { SqlClient } from "@effect/sql"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import type { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option, Schema } from "effect"
import { formatAccountId, parseAccountId } from "../accounts/AccountId.ts"
import type { ContactChannel } from "@platform/verification-codes"
import { IdReserved, type IdTaken, InvalidId } from "../accounts/errors.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { type NewCarbon, validateNewCarbon } from "../accounts/NewCarbon.ts"

/** An imported account waiting for its person: who imported it, and the name it was imported with. */
export const PendingImport = Schema.Struct({
  account_uuid: Schema.String,
  app_id: Schema.String,
  app_name: Schema.String,
  display_name: Schema.String
})
export type PendingImport = typeof PendingImport.Type

const decodePending = rowsDecoder(PendingImport)
const TABLES = { email: "account_emails", phone: "account_phones" } as const

/**
 * Finishing an import (spec 1, hosted flow: "new account or finishing an import"): a person who signs
 * up with an address an app imported becomes that imported account — same uuid, so the app knows
 * them — with the id, name and details they chose, and the address verified.
 *
 * Database failures: SqlError is a defect, except a taken handle (IdTaken).
 */
export class ImportClaims extends Effect.Service<ImportClaims>()("accounts/ImportClaims", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdsRepo

    /** The oldest unclaimed imported account holding this (normalized) address. */
    const pendingFor = (channel: ContactChannel, address: string): Effect.Effect<Option.Option<PendingImport>> =>
      sql`
        SELECT ia.account_uuid, ia.app_id, ap.name AS app_name, a.display_name
        FROM ${sql(TABLES[channel])} c
        JOIN imported_accounts ia ON ia.account_uuid = c.account_uuid
        JOIN accounts a ON a.uuid = ia.account_uuid
        JOIN apps ap ON ap.app_id = ia.app_id
        WHERE c.address = ${address} AND c.verified_at IS NULL AND ia.claimed_at IS NULL AND a.status = 'active'
        ORDER BY ia.created_at, ia.account_uuid
        LIMIT 1
      `.pipe(Effect.orDie, Effect.flatMap(decodePending), Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * Inside the sign-up's transaction: the imported account takes the sign-up's id and details and
     * its address is verified and primary. None when another sign-up claimed it first.
     */
    const claim = (
      accountUuid: string,
      input: NewCarbon & { readonly channel: ContactChannel; readonly address: string }
    ): Effect.Effect<Option.Option<{ readonly uuid: string }>, InvalidId | IdTaken | IdReserved | ValidationFailed> =>
      Effect.gen(function*() {
        const id = yield* parseAccountId(input.id, "carbon")
        if (id.kind !== "carbon") {
          return yield* new InvalidId({ message: `A Carbon's id starts with c:, not ${JSON.stringify(input.id)}.`, details: { reason: "invalid" } })
        }
        const at = yield* now
        const fields = yield* validateNewCarbon(input, at)
        const claimed = yield* sql`
          UPDATE imported_accounts SET claimed_at = ${at} WHERE account_uuid = ${accountUuid} AND claimed_at IS NULL RETURNING 1
        `.pipe(Effect.orDie)
        if (claimed.length === 0) return Option.none()
        // In a savepoint: a taken handle must not abort the sign-up's transaction.
        const moved = yield* sql.withTransaction(sql`
          UPDATE accounts SET handle = ${id.handle}, display_name = ${fields.displayName}, timezone = ${fields.timezone},
                 dob = ${fields.dob}, updated_at = ${at}, version = version + 1
          WHERE uuid = ${accountUuid}
        `).pipe(
          Effect.as(true),
          Effect.catchTag("SqlError", (error) => violatedConstraint(error) === "accounts_handle_key" ? Effect.succeed(false) : Effect.die(error))
        )
        if (!moved) return yield* ids.refuseTakenId(id, at)
        const reserved = yield* ids.reservedUntil(id.handle, at)
        if (Option.isSome(reserved)) {
          return yield* new IdReserved({
            message: `The id ${formatAccountId(id)} is reserved for its previous owner.`,
            details: { reserved_until: reserved.value.toISOString() }
          })
        }
        // As any verification does (ContactsRepo.saveContact): the address stops being pending elsewhere.
        yield* sql`
          DELETE FROM ${sql(TABLES[input.channel])} WHERE address = ${input.address} AND verified_at IS NULL AND account_uuid <> ${accountUuid}
        `.pipe(Effect.orDie)
        yield* sql`
          UPDATE ${sql(TABLES[input.channel])} SET verified_at = ${at}, is_primary = true
          WHERE account_uuid = ${accountUuid} AND address = ${input.address}
        `.pipe(Effect.orDie)
        return Option.some({ uuid: accountUuid })
      })

    return { pendingFor, claim } as const
  }),
  dependencies: [IdsRepo.Default]
}) {}
