import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import type { ValidationFailed } from "@platform/http"
import { Data, Effect, Option } from "effect"
import { type AccountId, type AccountKind, formatAccountId, parseAccountId } from "./AccountId.ts"
import { ACCOUNT_COLUMNS, AccountRow, type AccountStatus, type CarbonRow, isCarbonRow } from "./AccountRow.ts"
import { allocateUuid } from "./allocateUuid.ts"
import { type ContactInUse, ContactsRepo } from "./ContactsRepo.ts"
import { IdReserved, type IdTaken, InvalidId } from "./errors.ts"
import { IdsRepo } from "./IdsRepo.ts"
import { type NewCarbon, validateNewCarbon } from "./NewCarbon.ts"
import { isUuidShaped } from "./uuidPermutation.ts"
import { now } from "@platform/service"

/** Profile fields to change; absent ones stay as they are. */
export interface ProfileChanges {
  readonly displayName?: string | undefined
  readonly timezone?: string | undefined
  readonly dob?: string | undefined
}

/** The handle is held by another account (the unique index said so); becomes IdTaken with suggestions. */
export class HandleTaken extends Data.TaggedError("HandleTaken") {}

/** A new account row; `handle` lower-case, already validated. */
export interface NewAccount {
  readonly kind: AccountKind
  readonly handle: string
  readonly displayName: string
  readonly pfpUrl: string | null
  readonly dob: string | null
  readonly timezone: string
  readonly status: AccountStatus
  readonly at: Date
}

const decodeAccounts = rowsDecoder(AccountRow)

/** The account `uuid` (uuid-shaped): one statement on `accounts` alone. */
export const accountByUuid = (sql: SqlClient.SqlClient, uuid: string) =>
  sql`SELECT ${sql.literal(ACCOUNT_COLUMNS)} FROM accounts WHERE uuid = ${uuid}`

/**
 * Account records, Carbons and Silicons: their rows, uuids, creation and profile.
 *
 * Database failures: SqlError is a defect, except a taken or reserved handle (typed errors); a step
 * that runs inside its caller's transaction (`insertAccount`) leaves SqlError to that caller.
 */
export class AccountsRepo extends Effect.Service<AccountsRepo>()("accounts/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdsRepo
    const contacts = yield* ContactsRepo
    const columns = sql.literal(ACCOUNT_COLUMNS)

    const selectAccounts = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.flatMap(decodeAccounts), Effect.orDie, Effect.map((found) => Option.fromNullable(found[0])))

    /**
     * Inside the caller's transaction: a fresh uuid and a new account row holding `handle`.
     * A handle another account holds fails with HandleTaken (turn it into IdTaken with
     * `IdsRepo.refuseTakenId` once the transaction has rolled back); one reserved for its previous
     * owner fails with IdReserved.
     */
    const insertAccount = (input: NewAccount): Effect.Effect<AccountRow, HandleTaken | IdReserved | SqlError> =>
      Effect.gen(function*() {
        const uuid = yield* allocateUuid(sql)
        // In a savepoint of its own: a refused insert must not abort the caller's transaction.
        const inserted = yield* sql.withTransaction(sql`
          INSERT INTO accounts (uuid, kind, handle, display_name, pfp_url, dob, timezone, status, created_at, updated_at, version)
          VALUES (${uuid}, ${input.kind}, ${input.handle}, ${input.displayName}, ${input.pfpUrl}, ${input.dob},
                  ${input.timezone}, ${input.status}, ${input.at}, ${input.at}, 1)
          RETURNING ${columns}
        `).pipe(
          Effect.catchTag("SqlError", (error): Effect.Effect<never, SqlError | HandleTaken> =>
            violatedConstraint(error) === "accounts_handle_key" ? Effect.fail(new HandleTaken()) : Effect.fail(error))
        )
        // After the insert, which waited for any transaction moving this handle away:
        // a reservation that transaction wrote is visible to this new statement.
        const reserved = yield* ids.reservedUntil(input.handle, input.at)
        if (Option.isSome(reserved)) {
          return yield* new IdReserved({
            message: `The id ${formatAccountId(input)} is reserved for its previous owner.`,
            details: { reserved_until: reserved.value.toISOString() }
          })
        }
        const [row] = yield* decodeAccounts(inserted)
        if (row === undefined) return yield* Effect.dieMessage("the new account was not returned")
        return row
      })

    /**
     * A new active Carbon, in one transaction: a fresh uuid, the account, and
     * its email and phone as verified primaries.
     */
    const createCarbon = (
      input: NewCarbon
    ): Effect.Effect<CarbonRow, InvalidId | IdTaken | IdReserved | ValidationFailed | ContactInUse> =>
      Effect.gen(function*() {
        const id = yield* parseAccountId(input.id, "carbon")
        if (id.kind !== "carbon") {
          return yield* new InvalidId({
            message: `A Carbon's id starts with c:, not ${JSON.stringify(input.id)}.`,
            details: { reason: "invalid" }
          })
        }
        const at = yield* now
        const fields = yield* validateNewCarbon(input, at)
        const insert = Effect.gen(function*() {
          const account = yield* insertAccount({
            kind: "carbon",
            handle: id.handle,
            displayName: fields.displayName,
            pfpUrl: null,
            dob: fields.dob,
            timezone: fields.timezone,
            status: "active",
            at
          })
          const uuid = account.uuid
          if (fields.email !== null) yield* contacts.saveContact(uuid, "email", fields.email, true, at)
          if (fields.phone !== null) yield* contacts.saveContact(uuid, "phone", fields.phone, true, at)
          if (!isCarbonRow(account)) return yield* Effect.dieMessage("the new Carbon was not returned")
          return account
        })
        return yield* sql.withTransaction(insert).pipe(
          Effect.catchTags({
            HandleTaken: () => ids.refuseTakenId(id, at),
            // A new account holds no contact details yet: the limit cannot be reached here.
            EmailLimitReached: Effect.die,
            PhoneLimitReached: Effect.die,
            SqlError: Effect.die
          })
        )
      }).pipe(Effect.withSpan("AccountsRepo.createCarbon"))

    /** The account with this uuid (any status); none for text that is not uuid-shaped. */
    const findByUuid = (uuid: string): Effect.Effect<Option.Option<AccountRow>> =>
      isUuidShaped(uuid)
        ? selectAccounts(accountByUuid(sql, uuid))
        : Effect.succeed(Option.none())

    /** Which of these uuids are active Carbons', in one read; text that is not uuid-shaped is none. */
    const activeCarbonUuids = (uuids: ReadonlyArray<string>): Effect.Effect<ReadonlySet<string>> => {
      const shaped = [...new Set(uuids.filter(isUuidShaped))]
      if (shaped.length === 0) return Effect.succeed(new Set())
      return sql<{ readonly uuid: string }>`
        SELECT uuid FROM accounts WHERE uuid IN ${sql.in(shaped)} AND kind = 'carbon' AND status = 'active'
      `.pipe(Effect.orDie, Effect.map((rows) => new Set(rows.map((row) => row.uuid))))
    }

    /** The account holding this id now (a Silicon's handle does not answer for c:). */
    const findById = (id: AccountId): Effect.Effect<Option.Option<AccountRow>> =>
      selectAccounts(sql`SELECT ${columns} FROM accounts WHERE handle = ${id.handle} AND kind = ${id.kind}`)

    /**
     * Applies the profile fields given (already validated); `version` goes up and `updated_at`
     * moves only when a value actually changes. None for an unknown uuid.
     */
    const updateProfile = (uuid: string, changes: ProfileChanges): Effect.Effect<Option.Option<AccountRow>> =>
      Effect.gen(function*() {
        const at = yield* now
        const displayName = changes.displayName ?? null
        const timezone = changes.timezone ?? null
        const dob = changes.dob ?? null
        const updated = yield* selectAccounts(sql`
          UPDATE accounts SET
            display_name = COALESCE(${displayName}, display_name),
            timezone = COALESCE(${timezone}, timezone),
            dob = COALESCE(${dob}::date, dob),
            updated_at = ${at},
            version = version + 1
          WHERE uuid = ${uuid} AND (
            display_name IS DISTINCT FROM COALESCE(${displayName}, display_name) OR
            timezone IS DISTINCT FROM COALESCE(${timezone}, timezone) OR
            dob IS DISTINCT FROM COALESCE(${dob}::date, dob)
          )
          RETURNING ${columns}
        `)
        return Option.isSome(updated) ? updated : yield* findByUuid(uuid)
      }).pipe(Effect.withSpan("AccountsRepo.updateProfile"))

    return {
      insertAccount,
      createCarbon,
      updateProfile,
      findByUuid,
      activeCarbonUuids,
      findById
    } as const
  }),
  dependencies: [IdsRepo.Default, ContactsRepo.Default]
}) {}
