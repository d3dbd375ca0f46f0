import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import type { ValidationFailed } from "@platform/http"
import { Effect, Either, Option, Schema } from "effect"
import { ACCOUNT_COLUMNS, AccountRow } from "./AccountRow.ts"
import { type ContactChannel, normalizeAddress } from "@platform/verification-codes"
import { ContactRow } from "./ContactRow.ts"
import { CONTACTS_PER_CHANNEL } from "./AccountsMigration.ts"
import {
  AccountNotFound,
  ContactIsPrimary,
  EmailInUse,
  EmailLimitReached,
  EmailNotFound,
  EmailNotVerified,
  LastVerifiedContact,
  PhoneInUse,
  PhoneLimitReached,
  PhoneNotFound,
  PhoneNotVerified
} from "./errors.ts"
import { validationFailed } from "./NewCarbon.ts"
import { now } from "@platform/service"

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

/**
 * The emails and phones of accounts: addresses, their verification and which one is primary, and
 * the account an address is verified on.
 *
 * Database failures: SqlError is a defect, except the refusals a caller acts on (an address verified
 * on another account, the limit per channel), which are typed errors.
 */
export class ContactsRepo extends Effect.Service<ContactsRepo>()("accounts/ContactsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

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
     * Inside a transaction that locked (or created) the account: adds `address` or verifies
     * it when it is already pending on this account. Verifying removes it from
     * other accounts where it was only pending; the first verified address
     * becomes primary.
     */
    const saveContact = (accountUuid: string, channel: ContactChannel, address: string, verified: boolean, at: Date) =>
      // In a savepoint of its own: a refused write must not abort the caller's transaction.
      sql.withTransaction(Effect.gen(function*() {
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
      })).pipe(Effect.catchTag("SqlError", contactRefusal(channel)))

    /** The account on which this address is verified; a malformed address is 422 validation_failed. */
    const findByVerifiedContact = (
      channel: ContactChannel,
      input: string
    ): Effect.Effect<Option.Option<AccountRow>, ValidationFailed> =>
      Either.match(normalizeAddress(channel, input), {
        onLeft: (problem) => Effect.fail(validationFailed({ [channel]: problem })),
        onRight: (address) =>
          sql`
            SELECT ${sql.literal(ACCOUNT_COLUMNS)} FROM accounts
            WHERE uuid = (SELECT account_uuid FROM ${sql(TABLES[channel])} WHERE address = ${address} AND verified_at IS NOT NULL)
          `.pipe(Effect.flatMap(decodeAccounts), Effect.orDie, Effect.map((found) => Option.fromNullable(found[0])))
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
      }).pipe(Effect.withSpan("ContactsRepo.addContact"))

    /** An account's emails or phones, primary first, then oldest first. */
    const contactsOf = (accountUuid: string, channel: ContactChannel): Effect.Effect<ReadonlyArray<ContactRow>> =>
      sql`
        SELECT ${sql.literal(CONTACT_COLUMNS)} FROM ${sql(TABLES[channel])}
        WHERE account_uuid = ${accountUuid}
        ORDER BY is_primary DESC, created_at, address
      `.pipe(Effect.flatMap(decodeContacts), Effect.orDie)

    /**
     * A page of the account's emails or phones in the order of `contactsOf`: `limit + 1` of them after
     * `after` (whether primary, created_at ISO, address).
     */
    const contactsPage = (
      accountUuid: string,
      channel: ContactChannel,
      limit: number,
      after: Option.Option<readonly [boolean, string, string]>
    ): Effect.Effect<ReadonlyArray<ContactRow>> => {
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([primary, createdAt, address]) =>
          sql`AND (NOT is_primary, created_at, address) > (${!primary}, ${new Date(createdAt)}, ${address})`
      })
      return sql`
        SELECT ${sql.literal(CONTACT_COLUMNS)} FROM ${sql(TABLES[channel])}
        WHERE account_uuid = ${accountUuid} ${position}
        ORDER BY is_primary DESC, created_at, address
        LIMIT ${limit + 1}
      `.pipe(Effect.flatMap(decodeContacts), Effect.orDie)
    }

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
      }).pipe(Effect.withSpan("ContactsRepo.addPendingContact"))

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
      }).pipe(Effect.withSpan("ContactsRepo.verifyPendingContact"))

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
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("ContactsRepo.makePrimaryContact"))

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
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("ContactsRepo.removeContact"))

    return {
      saveContact,
      findByVerifiedContact,
      findByVerifiedEmail: (email: string) => findByVerifiedContact("email", email),
      findByVerifiedPhone: (phone: string) => findByVerifiedContact("phone", phone),
      addContact,
      contactsOf,
      contactsPage,
      addPendingContact,
      verifyPendingContact,
      makePrimaryContact,
      removeContact
    } as const
  })
}) {}
