import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { ValidationFailed } from "@platform/http"
import { Clock, Data, Effect, Either, Option, Schema } from "effect"
import { type AccountId, formatAccountId, parseAccountId } from "./AccountId.ts"
import { AccountRow, type CarbonRow, isCarbonRow } from "./AccountRow.ts"
import { allocateUuid } from "./allocateUuid.ts"
import { type ContactChannel, normalizeAddress } from "./contactAddresses.ts"
import { ContactRow } from "./ContactRow.ts"
import { violatedConstraint } from "./constraintViolation.ts"
import { CONTACTS_PER_CHANNEL } from "./AccountsMigration.ts"
import {
  AccountNotFound,
  EmailInUse,
  EmailLimitReached,
  IdReserved,
  IdTaken,
  InvalidId,
  PhoneInUse,
  PhoneLimitReached
} from "./errors.ts"
import { SUGGESTION_COUNT, suggestionCandidates } from "./idSuggestions.ts"
import { type NewCarbon, validateNewCarbon, validationFailed } from "./NewCarbon.ts"
import { isUuidShaped } from "./uuidPermutation.ts"

/** Whether an id can be given to a new owner now. */
export type IdAvailability = Data.TaggedEnum<{
  Free: { readonly id: AccountId }
  Taken: { readonly id: AccountId; readonly suggestions: ReadonlyArray<string> }
  Reserved: { readonly id: AccountId; readonly reservedUntil: Date; readonly suggestions: ReadonlyArray<string> }
}>
export const IdAvailability = Data.taggedEnum<IdAvailability>()

export interface NewContact {
  readonly accountUuid: string
  readonly channel: ContactChannel
  /** As typed; normalized here (emails trimmed and lower-cased, phones E.164). */
  readonly address: string
  /** Verified now (by a code, a provider or an operator), or pending verification. */
  readonly verified: boolean
}

export type ContactInUse = EmailInUse | PhoneInUse
export type ContactLimitReached = EmailLimitReached | PhoneLimitReached

/** Profile fields to change; absent ones stay as they are. */
export interface ProfileChanges {
  readonly displayName?: string | undefined
  readonly timezone?: string | undefined
  readonly dob?: string | undefined
}

/** The handle is held by another account (the unique index said so); becomes IdTaken with suggestions. */
class HandleTaken extends Data.TaggedError("HandleTaken") {}

const TABLES: Readonly<Record<ContactChannel, string>> = { email: "account_emails", phone: "account_phones" }

const ACCOUNT_COLUMNS =
  "uuid, kind, handle, display_name, pfp_url, dob::text AS dob, timezone, status, created_at, updated_at, version"

/** Rows that do not match are a broken database contract, hence a defect. */
const decodeRows = <A, I>(schema: Schema.Schema<A, I>) => (rows: unknown) =>
  Schema.decodeUnknown(Schema.Array(schema))(rows).pipe(Effect.orDie)

const inUse = (channel: ContactChannel): ContactInUse =>
  channel === "email"
    ? new EmailInUse({ message: "This email address is verified on another account." })
    : new PhoneInUse({ message: "This phone number is verified on another account." })

const limitReached = (channel: ContactChannel): ContactLimitReached => {
  const options = { details: { limit: CONTACTS_PER_CHANNEL } }
  return channel === "email"
    ? new EmailLimitReached({ message: `An account holds at most ${CONTACTS_PER_CHANNEL} email addresses.`, ...options })
    : new PhoneLimitReached({ message: `An account holds at most ${CONTACTS_PER_CHANNEL} phone numbers.`, ...options })
}

/** Account records: Carbons now, Silicons later; their ids, uuids and contact details. */
export class AccountsRepo extends Effect.Service<AccountsRepo>()("accounts/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(ACCOUNT_COLUMNS)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const selectAccounts = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.flatMap(decodeRows(AccountRow)), Effect.orDie, Effect.map((found) => Option.fromNullable(found[0])))

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

    const idTaken = (id: AccountId, at: Date) =>
      Effect.flatMap(suggestionsFor(id, at), (suggestions) =>
        Effect.fail(
          new IdTaken({
            message: `The id ${formatAccountId(id)} is taken${
              suggestions.length > 0 ? `; free ids include ${suggestions.join(", ")}` : ""
            }.`,
            details: { suggestions }
          })
        ))

    const reservedUntil = (handle: string, at: Date) =>
      sql<{ readonly reserved_until: Date }>`
        SELECT reserved_until FROM account_id_reservations WHERE handle = ${handle} AND reserved_until > ${at}
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.reserved_until)))

    /**
     * Inside a transaction that locked the account: adds `address` or verifies
     * it when it is already pending on this account. Verifying removes it from
     * other accounts where it was only pending; the first verified address
     * becomes primary.
     */
    const saveContact = (accountUuid: string, channel: ContactChannel, address: string, verified: boolean, at: Date) =>
      Effect.gen(function*() {
        const table = sql(TABLES[channel])
        const verifiedElsewhere = yield* sql`
          SELECT 1 FROM ${table} WHERE address = ${address} AND verified_at IS NOT NULL AND account_uuid <> ${accountUuid}
        `
        if (verifiedElsewhere.length > 0) return yield* Effect.fail(inUse(channel))
        if (verified) {
          yield* sql`
            DELETE FROM ${table} WHERE address = ${address} AND verified_at IS NULL AND account_uuid <> ${accountUuid}
          `
        }
        const verifiedAt = verified ? at : null
        const makePrimary = sql`
          ${verified} AND NOT EXISTS (SELECT 1 FROM ${table} WHERE account_uuid = ${accountUuid} AND is_primary)
        `
        const updated = yield* sql`
          UPDATE ${table}
          SET verified_at = COALESCE(verified_at, ${verifiedAt}), is_primary = is_primary OR (${makePrimary})
          WHERE account_uuid = ${accountUuid} AND address = ${address}
          RETURNING address, verified_at, is_primary, created_at
        `
        const rows = updated.length > 0 ? updated : yield* sql`
          INSERT INTO ${table} (account_uuid, address, verified_at, is_primary, created_at)
          VALUES (${accountUuid}, ${address}, ${verifiedAt}, ${makePrimary}, ${at})
          RETURNING address, verified_at, is_primary, created_at
        `
        const [saved] = yield* decodeRows(ContactRow)(rows)
        return saved!
      }).pipe(
        Effect.catchTag("SqlError", (error): Effect.Effect<never, ContactInUse | ContactLimitReached> => {
          const constraint = violatedConstraint(error)
          if (constraint === `${TABLES[channel]}_verified_address`) return Effect.fail(inUse(channel))
          if (constraint === `${TABLES[channel]}_limit`) return Effect.fail(limitReached(channel))
          return Effect.die(error)
        })
      )

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
          const uuid = yield* allocateUuid(sql)
          const inserted = yield* sql`
            INSERT INTO accounts (uuid, kind, handle, display_name, pfp_url, dob, timezone, status, created_at, updated_at, version)
            VALUES (${uuid}, 'carbon', ${id.handle}, ${fields.displayName}, NULL, ${fields.dob}, ${fields.timezone},
                    'active', ${at}, ${at}, 1)
            RETURNING ${columns}
          `.pipe(
            Effect.catchTag("SqlError", (error) =>
              violatedConstraint(error) === "accounts_handle_key" ? Effect.fail(new HandleTaken()) : Effect.die(error))
          )
          // After the insert, which waited for any transaction moving this handle away:
          // a reservation that transaction wrote is visible to this new statement.
          const reserved = yield* reservedUntil(id.handle, at)
          if (Option.isSome(reserved)) {
            return yield* new IdReserved({
              message: `The id ${formatAccountId(id)} is reserved for its previous owner.`,
              details: { reserved_until: reserved.value.toISOString() }
            })
          }
          if (fields.email !== null) yield* saveContact(uuid, "email", fields.email, true, at)
          if (fields.phone !== null) yield* saveContact(uuid, "phone", fields.phone, true, at)
          const [row] = yield* decodeRows(AccountRow)(inserted)
          if (row === undefined || !isCarbonRow(row)) return yield* Effect.dieMessage("the new Carbon was not returned")
          return row
        })
        return yield* sql.withTransaction(insert).pipe(
          Effect.catchTags({
            HandleTaken: () => idTaken(id, at),
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
        ? selectAccounts(sql`SELECT ${columns} FROM accounts WHERE uuid = ${uuid}`)
        : Effect.succeed(Option.none())

    /** The account holding this id now (a Silicon's handle does not answer for c:). */
    const findById = (id: AccountId): Effect.Effect<Option.Option<AccountRow>> =>
      selectAccounts(sql`SELECT ${columns} FROM accounts WHERE handle = ${id.handle} AND kind = ${id.kind}`)

    /** The account on which this address is verified; a malformed address is 422 validation_failed. */
    const findByVerifiedContact = (
      channel: ContactChannel,
      input: string
    ): Effect.Effect<Option.Option<AccountRow>, ValidationFailed> =>
      Either.match(normalizeAddress(channel, input), {
        onLeft: (problem) => Effect.fail(validationFailed({ [channel]: problem })),
        onRight: (address) =>
          selectAccounts(sql`
            SELECT ${columns} FROM accounts
            WHERE uuid = (SELECT account_uuid FROM ${sql(TABLES[channel])} WHERE address = ${address} AND verified_at IS NOT NULL)
          `)
      })

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

    /**
     * Adds an email or phone to an account, or verifies one pending on it.
     * At most 10 of each per account; an address verified on one account is
     * refused on every other.
     */
    const addContact = (
      contact: NewContact
    ): Effect.Effect<ContactRow, ValidationFailed | AccountNotFound | ContactInUse | ContactLimitReached> =>
      Effect.gen(function*() {
        const address = yield* Either.mapLeft(
          normalizeAddress(contact.channel, contact.address),
          (problem) => validationFailed({ [contact.channel]: problem })
        )
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          // Serializes this account's contact changes (the limit trigger takes the same lock).
          const account = yield* sql`SELECT 1 FROM accounts WHERE uuid = ${contact.accountUuid} FOR NO KEY UPDATE`
          if (account.length === 0) return yield* new AccountNotFound({ message: "No account has this uuid." })
          return yield* saveContact(contact.accountUuid, contact.channel, address, contact.verified, at)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      }).pipe(Effect.withSpan("AccountsRepo.addContact"))

    /** An account's emails or phones, primary first, then oldest first. */
    const contactsOf = (accountUuid: string, channel: ContactChannel): Effect.Effect<ReadonlyArray<ContactRow>> =>
      sql`
        SELECT address, verified_at, is_primary, created_at FROM ${sql(TABLES[channel])}
        WHERE account_uuid = ${accountUuid}
        ORDER BY is_primary DESC, created_at, address
      `.pipe(Effect.flatMap(decodeRows(ContactRow)), Effect.orDie)

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
      createCarbon,
      updateProfile,
      findByUuid,
      findById,
      findByVerifiedContact,
      findByVerifiedEmail: (email: string) => findByVerifiedContact("email", email),
      findByVerifiedPhone: (phone: string) => findByVerifiedContact("phone", phone),
      idAvailability,
      addContact,
      contactsOf
    } as const
  })
}) {}
