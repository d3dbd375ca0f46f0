import { enqueueMessage } from "@platform/mail"
import { Effect } from "effect"
import { ContactsRepo } from "../accounts/ContactsRepo.ts"
import type { CustodianAddress } from "./custodianAddress.ts"

/**
 * Inside the transaction that creates a request: queues the message to the
 * Carbon asked, at the email it was named by, else at its primary email, else
 * its primary phone. A Carbon with neither is not told (it sees the request
 * in its list).
 */
export const notifyCustodian = (to: CustodianAddress, message: { readonly subject: string; readonly text: string }) =>
  Effect.gen(function*() {
    const contacts = yield* ContactsRepo
    if (to.toEmail !== null) {
      return yield* enqueueMessage({ to: to.toEmail, channel: "email", subject: message.subject, text: message.text, code: null })
    }
    if (to.toUuid === null) return
    const emails = yield* contacts.contactsOf(to.toUuid, "email")
    const email = emails.find((contact) => contact.is_primary)
    if (email !== undefined) {
      return yield* enqueueMessage({ to: email.address, channel: "email", subject: message.subject, text: message.text, code: null })
    }
    const phones = yield* contacts.contactsOf(to.toUuid, "phone")
    const phone = phones.find((contact) => contact.is_primary)
    if (phone !== undefined) {
      yield* enqueueMessage({ to: phone.address, channel: "sms", subject: message.subject, text: message.text, code: null })
    }
  })
