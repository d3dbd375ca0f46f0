import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import type { ValidationFailed } from "@platform/http"
import { Data, Effect, Either, Option, Schema } from "effect"
import { type AccountId, type AccountKind, formatAccountId, parseAccountId } from "./AccountId.ts"
import { ACCOUNT_COLUMNS, AccountRow, type AccountStatus, type CarbonRow, isCarbonRow } from "./AccountRow.ts"
import { allocateUuid } from "./allocateUuid.ts"
import { type ContactChannel, normalizeAddress } from "./contactAddresses.ts"
import { ContactRow } from "./ContactRow.ts"
import { violatedConstraint } from "./constraintViolation.ts"
import { CONTACTS_PER_CHANNEL } from "./AccountsMigration.ts"
import {
  AccountNotFound,
  ContactIsPrimary,
  EmailInUse,
  EmailLimitReached,
  EmailNotFound,
  EmailNotVerified,
  IdReserved,
  IdTaken,
  InvalidId,
  LastVerifiedContact,
  PhoneInUse,
  PhoneLimitReached,
  PhoneNotFound,
  PhoneNotVerified
} from "./errors.ts"
import { SUGGESTION_COUNT, suggestionCandidates } from "./idSuggestions.ts"
import { type NewCarbon, validateNewCarbon, validationFailed } from "./NewCarbon.ts"
import { isUuidShaped } from "./uuidPermutation.ts"
import { now } from "@platform/service"

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
export type ContactNotFound = EmailNotFound | PhoneNotFound
export type ContactNotVerified = EmailNotVerified | PhoneNotVerified

/** Profile fields to change; absent ones stay as they are. */
export interface ProfileChanges {
  readonly displayName?: string | undefined
  readonly timezone?: string | undefined
  readonly dob?: string | undefined
}

const notFound = (channel: ContactChannel): ContactNotFound =>
  channel === "email"
    ? new EmailNotFound({ message: "This account has no such email address." })
    : new PhoneNotFound({ message: "This account has no such phone number." })

const notVerified = (channel: ContactChannel): ContactNotVerified =>
  channel === "email"
    ? new EmailNotVerified({
      message: "Only a verified email address can be primary.",
      hint: "Verify it with the code sent to it first."
    })
    : new PhoneNotVerified({
      message: "Only a verified phone number can be primary.",
      hint: "Verify it with the code sent to it first."
    })

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

const TABLES: Readonly<Record<ContactChannel, string>> = { email: "account_emails", phone: "account_phones" }

const accountNotFound = () => new AccountNotFound({ message: "No account has this uuid." })

const CONTACT_COLUMNS = "address, verified_at, is_primary, created_at"

/** One verified address of an account, of either channel. */
const VerifiedContact = Schema.Struct({ channel: Schema.Literal("email", "phone"), address: Schema.String })


const decodeAccounts = rowsDecoder(AccountRow)
const decodeContacts = rowsDecoder(ContactRow)
const decodeVerifiedContacts = rowsDecoder(VerifiedContact)

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

/** What the database said about a contact write: the unique verified address or the limit trigger; else a defect. */
const contactRefusal = (channel: ContactChannel) =>
(error: SqlError): Effect.Effect<never, ContactInUse | ContactLimitReached> => {
  const constraint = violatedConstraint(error)
  if (constraint === `${TABLES[channel]}_verified_address`) return Effect.fail(inUse(channel))
  if (constraint === `${TABLES[channel]}_limit`) return Effect.fail(limitReached(channel))
  return Effect.die(error)
}

/** Account records: Carbons now, Silicons later; their ids, uuids and contact details. */
export class AccountsRepo extends Effect.Service<AccountsRepo>()("accounts/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(ACCOUNT_COLUMNS)

    const selectAccounts = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.flatMap(decodeAccounts), Effect.orDie, Effect.map((found) => Option.fromNullable(found[0])))

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

    /** Whether `address` is verified on an account other than `accountUuid`. */
    const verifiedElsewhere = (accountUuid: string, channel: ContactChannel, address: string) =>
      Effect.map(
        sql`
          SELECT 1 FROM ${sql(TABLES[channel])}
          WHERE address = ${address} AND verified_at IS NOT NULL AND account_uuid <> ${accountUuid}
        `,
        (rows) => rows.length > 0
      )

    /** Locks the account row until the transaction ends (contact changes serialize on it); false when there is none. */
    const lockAccount = (accountUuid: string) =>
      Effect.map(
        sql`SELECT 1 FROM accounts WHERE uuid = ${accountUuid} FOR NO KEY UPDATE`,
        (rows) => rows.length > 0
      )

    /** One of the account's emails or phones, by its normalized address. */
    const selectContact = (accountUuid: string, channel: ContactChannel, address: string) =>
      sql`
        SELECT ${sql.literal(CONTACT_COLUMNS)} FROM ${sql(TABLES[channel])}
        WHERE account_uuid = ${accountUuid} AND address = ${address}
      `.pipe(Effect.flatMap(decodeContacts), Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * Inside a transaction that locked the account: adds `address` or verifies
     * it when it is already pending on this account. Verifying removes it from
     * other accounts where it was only pending; the first verified address
     * becomes primary.
     */
    const saveContact = (accountUuid: string, channel: ContactChannel, address: string, verified: boolean, at: Date) =>
      Effect.gen(function*() {
        const table = sql(TABLES[channel])
        if (yield* verifiedElsewhere(accountUuid, channel, address)) return yield* Effect.fail(inUse(channel))
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
        const [saved] = yield* decodeContacts(rows)
        return saved!
      }).pipe(Effect.catchTag("SqlError", contactRefusal(channel)))

    /**
     * Inside the caller's transaction: a fresh uuid and a new account row holding `handle`.
     * A handle another account holds fails with HandleTaken (turn it into IdTaken with
     * `refuseTakenId` once the transaction has rolled back); one reserved for its previous
     * owner fails with IdReserved.
     */
    const insertAccount = (input: NewAccount): Effect.Effect<AccountRow, HandleTaken | IdReserved | SqlError> =>
      Effect.gen(function*() {
        const uuid = yield* allocateUuid(sql)
        const inserted = yield* sql`
          INSERT INTO accounts (uuid, kind, handle, display_name, pfp_url, dob, timezone, status, created_at, updated_at, version)
          VALUES (${uuid}, ${input.kind}, ${input.handle}, ${input.displayName}, ${input.pfpUrl}, ${input.dob},
                  ${input.timezone}, ${input.status}, ${input.at}, ${input.at}, 1)
          RETURNING ${columns}
        `.pipe(
          Effect.catchTag("SqlError", (error): Effect.Effect<never, SqlError | HandleTaken> =>
            violatedConstraint(error) === "accounts_handle_key" ? Effect.fail(new HandleTaken()) : Effect.fail(error))
        )
        // After the insert, which waited for any transaction moving this handle away:
        // a reservation that transaction wrote is visible to this new statement.
        const reserved = yield* reservedUntil(input.handle, input.at)
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
          if (fields.email !== null) yield* saveContact(uuid, "email", fields.email, true, at)
          if (fields.phone !== null) yield* saveContact(uuid, "phone", fields.phone, true, at)
          if (!isCarbonRow(account)) return yield* Effect.dieMessage("the new Carbon was not returned")
          return account
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
          if (!(yield* lockAccount(contact.accountUuid))) return yield* accountNotFound()
          return yield* saveContact(contact.accountUuid, contact.channel, address, contact.verified, at)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      }).pipe(Effect.withSpan("AccountsRepo.addContact"))

    /** An account's emails or phones, primary first, then oldest first. */
    const contactsOf = (accountUuid: string, channel: ContactChannel): Effect.Effect<ReadonlyArray<ContactRow>> =>
      sql`
        SELECT ${sql.literal(CONTACT_COLUMNS)} FROM ${sql(TABLES[channel])}
        WHERE account_uuid = ${accountUuid}
        ORDER BY is_primary DESC, created_at, address
      `.pipe(Effect.flatMap(decodeContacts), Effect.orDie)

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

    /**
     * Adds an email or phone pending verification, or finds it already on the
     * account (pending or verified). It is not checked against other accounts:
     * whether another account holds it verified is told only to whoever
     * verifies it (see `verifyPendingContact`). At most 10 of each per account.
     */
    const addPendingContact = (
      accountUuid: string,
      channel: ContactChannel,
      input: string
    ): Effect.Effect<ContactRow, ValidationFailed | AccountNotFound | ContactLimitReached> =>
      Effect.gen(function*() {
        const address = yield* Either.mapLeft(
          normalizeAddress(channel, input),
          (problem) => validationFailed({ [channel]: problem })
        )
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          if (!(yield* lockAccount(accountUuid))) return yield* accountNotFound()
          const existing = yield* selectContact(accountUuid, channel, address)
          if (Option.isSome(existing)) return existing.value
          const inserted = yield* sql`
            INSERT INTO ${sql(TABLES[channel])} (account_uuid, address, verified_at, is_primary, created_at)
            VALUES (${accountUuid}, ${address}, NULL, false, ${at})
            RETURNING ${sql.literal(CONTACT_COLUMNS)}
          `.pipe(Effect.flatMap(decodeContacts))
          return inserted[0]!
        })).pipe(
          Effect.catchTag("SqlError", contactRefusal(channel)),
          // Pending rows are refused by no other account's verified address.
          Effect.catchTags({ EmailInUse: Effect.die, PhoneInUse: Effect.die })
        )
      }).pipe(Effect.withSpan("AccountsRepo.addPendingContact"))

    /**
     * Verifies an address pending on the account (normalized, as a code proved
     * it). Refused when another account holds it verified, and not found when
     * it is no longer on this account (removed, or taken by another account's
     * verification).
     */
    const verifyPendingContact = (
      accountUuid: string,
      channel: ContactChannel,
      address: string
    ): Effect.Effect<ContactRow, ContactNotFound | ContactInUse> =>
      Effect.gen(function*() {
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const pending = (yield* lockAccount(accountUuid))
            ? yield* selectContact(accountUuid, channel, address)
            : Option.none()
          if (Option.isNone(pending)) {
            return yield* Effect.fail(
              (yield* verifiedElsewhere(accountUuid, channel, address)) ? inUse(channel) : notFound(channel)
            )
          }
          return yield* saveContact(accountUuid, channel, address, true, at)
        })).pipe(
          Effect.catchTags({
            // The address is on the account already: verifying it adds nothing.
            EmailLimitReached: Effect.die,
            PhoneLimitReached: Effect.die,
            SqlError: Effect.die
          })
        )
      }).pipe(Effect.withSpan("AccountsRepo.verifyPendingContact"))

    /** Makes a verified address the account's primary of its channel; the previous primary stops being primary. */
    const makePrimaryContact = (
      accountUuid: string,
      channel: ContactChannel,
      address: string
    ): Effect.Effect<ContactRow, ContactNotFound | ContactNotVerified> =>
      sql.withTransaction(Effect.gen(function*() {
        const found = (yield* lockAccount(accountUuid))
          ? yield* selectContact(accountUuid, channel, address)
          : Option.none()
        if (Option.isNone(found)) return yield* Effect.fail(notFound(channel))
        if (found.value.verified_at === null) return yield* Effect.fail(notVerified(channel))
        if (found.value.is_primary) return found.value
        const table = sql(TABLES[channel])
        // One primary per account: the old one goes first.
        yield* sql`UPDATE ${table} SET is_primary = false WHERE account_uuid = ${accountUuid} AND is_primary`
        const updated = yield* sql`
          UPDATE ${table} SET is_primary = true WHERE account_uuid = ${accountUuid} AND address = ${address}
          RETURNING ${sql.literal(CONTACT_COLUMNS)}
        `.pipe(Effect.flatMap(decodeContacts))
        return updated[0]!
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("AccountsRepo.makePrimaryContact"))

    /**
     * Removes an address from the account. A pending one always goes; a
     * verified one unless it is the account's last verified email or phone
     * (a Carbon signs in with one), or the primary while its channel has
     * another verified address (that one must become primary first).
     */
    const removeContact = (
      accountUuid: string,
      channel: ContactChannel,
      address: string
    ): Effect.Effect<void, ContactNotFound | ContactIsPrimary | LastVerifiedContact> =>
      sql.withTransaction(Effect.gen(function*() {
        const found = (yield* lockAccount(accountUuid))
          ? yield* selectContact(accountUuid, channel, address)
          : Option.none()
        if (Option.isNone(found)) return yield* Effect.fail(notFound(channel))
        if (found.value.verified_at !== null) {
          const verified = yield* sql`
            SELECT 'email' AS channel, address FROM account_emails
            WHERE account_uuid = ${accountUuid} AND verified_at IS NOT NULL
            UNION ALL
            SELECT 'phone' AS channel, address FROM account_phones
            WHERE account_uuid = ${accountUuid} AND verified_at IS NOT NULL
          `.pipe(Effect.flatMap(decodeVerifiedContacts))
          const others = verified.filter((other) => other.channel !== channel || other.address !== address)
          if (others.length === 0) {
            return yield* new LastVerifiedContact({
              message: "This is the account's only verified email or phone; a Carbon signs in with one.",
              hint: "Add and verify another email or phone first."
            })
          }
          if (found.value.is_primary && others.some((other) => other.channel === channel)) {
            return yield* new ContactIsPrimary({
              message: `This is the account's primary ${channel === "email" ? "email address" : "phone number"}.`,
              hint: "Make another verified one primary first."
            })
          }
        }
        yield* sql`DELETE FROM ${sql(TABLES[channel])} WHERE account_uuid = ${accountUuid} AND address = ${address}`
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("AccountsRepo.removeContact"))

    return {
      insertAccount,
      refuseTakenId: idTaken,
      createCarbon,
      updateProfile,
      findByUuid,
      activeCarbonUuids,
      findById,
      findByVerifiedContact,
      findByVerifiedEmail: (email: string) => findByVerifiedContact("email", email),
      findByVerifiedPhone: (phone: string) => findByVerifiedContact("phone", phone),
      idAvailability,
      addContact,
      contactsOf,
      addPendingContact,
      verifyPendingContact,
      makePrimaryContact,
      removeContact
    } as const
  })
}) {}
