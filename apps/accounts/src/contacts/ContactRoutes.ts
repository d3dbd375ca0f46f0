import { clientAddress, noStore, type PageQuery, pageOf, pageRequest } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect } from "effect"
import { type ContactChannel, VerificationCodes } from "@platform/verification-codes"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import { EmailInUse, PhoneInUse } from "../accounts/errors.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { AccountsConfig } from "../config.ts"
import { ofChannel } from "./channelErrors.ts"
import { reportingProfileChanges } from "../events/profileChanges.ts"
import { contactOf, ContactPosition } from "./Contact.ts"
import { addCodeMessage, addPurpose, addsPerAccount, addsPerIp, verificationChannelOf } from "./policy.ts"
import { eventWriter } from "../events/EventWriter.ts"

const alreadyVerifiedHere = (channel: ContactChannel) =>
  channel === "email"
    ? new EmailInUse({ message: "This email address is already verified on your account." })
    : new PhoneInUse({ message: "This phone number is already verified on your account." })

/**
 * What `/v1/me/emails` (channel email) or `/v1/me/phones` (channel phone) do, for the
 * signed-in Carbon. Adding sends a code bound to the account and the channel; the address
 * is pending until that code comes back.
 */
export const makeContactRoutes = <C extends ContactChannel>(channel: C) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const codes = yield* VerificationCodes
    const accounts = yield* AccountsRepo
    const contacts = yield* ContactsRepo
    const ownErrors = ofChannel(channel)
    const carbon = Effect.provideService(requireCarbon, AccountsRepo, accounts)
    const purposeFor = (accountUuid: string) => addPurpose(channel, accountUuid)
    const message = addCodeMessage(channel)
    const events = yield* eventWriter
    /** A change that may move the primary address, with the account.updated it causes. */
    const reported = <A, E>(accountUuid: string, change: Effect.Effect<A, E>) =>
      reportingProfileChanges(events, accountUuid, change).pipe(Effect.catchTag("SqlError", Effect.die))

    const list = (query: PageQuery) =>
      Effect.gen(function*() {
        const account = yield* carbon
        const { after, limit } = yield* pageRequest(ContactPosition, query)
        const rows = yield* contacts.contactsPage(account.uuid, channel, limit, after)
        const page = pageOf(rows, limit, (row) => [row.is_primary, row.created_at.toISOString(), row.address] as const)
        return { items: page.items.map(contactOf), next_cursor: page.nextCursor }
      })

    const add = (input: string) =>
      Effect.gen(function*() {
        const account = yield* carbon
        const ip = yield* clientAddress(config.trustProxy)
        yield* enforceRateLimit(limiter, addsPerIp, ip)
        yield* enforceRateLimit(limiter, addsPerAccount, account.uuid)
        const contact = yield* ownErrors(contacts.addPendingContact(account.uuid, channel, input).pipe(
          // The caller's account was just read: it exists.
          Effect.catchTag("AccountNotFound", Effect.die)
        ))
        if (contact.verified_at !== null) return yield* ownErrors(Effect.fail(alreadyVerifiedHere(channel)))
        yield* noStore
        return yield* codes.send({
          channel: verificationChannelOf(channel),
          destination: contact.address,
          purpose: purposeFor(account.uuid),
          clientAddress: ip,
          message
        })
      })

    const verify = (challengeId: string, code: string) =>
      Effect.gen(function*() {
        const account = yield* carbon
        yield* noStore
        const verified = yield* codes.verify({ challengeId, purpose: purposeFor(account.uuid), code })
        const contact = yield* ownErrors(reported(account.uuid, contacts.verifyPendingContact(account.uuid, channel, verified.destination)))
        return contactOf(contact)
      })

    const resend = (challengeId: string) =>
      Effect.gen(function*() {
        const account = yield* carbon
        yield* noStore
        return yield* codes.resend({
          challengeId,
          purpose: purposeFor(account.uuid),
          clientAddress: yield* clientAddress(config.trustProxy),
          message
        })
      })

    /** `address` comes normalized from the path. */
    const makePrimary = (address: string) =>
      Effect.gen(function*() {
        const account = yield* carbon
        return contactOf(yield* ownErrors(reported(account.uuid, contacts.makePrimaryContact(account.uuid, channel, address))))
      })

    const remove = (address: string) =>
      Effect.gen(function*() {
        const account = yield* carbon
        yield* ownErrors(reported(account.uuid, contacts.removeContact(account.uuid, channel, address)))
      })

    return { list, add, verify, resend, makePrimary, remove } as const
  })
