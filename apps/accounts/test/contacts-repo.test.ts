import { expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { AccountReposTest, atNow, NOW } from "./support/accountsRepo.ts"

const addressesOf = (rows: ReadonlyArray<{ readonly address: string; readonly verified_at: Date | null; readonly is_primary: boolean }>) =>
  rows.map((row) => [row.address, row.verified_at !== null, row.is_primary])

layer(AccountReposTest())("ContactsRepo: pending, verified, primary and removed contact details", (it) => {
  it.effect("adds an address pending, normalized, once; it is not checked against other accounts", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      yield* accounts.createCarbon({ id: "c:holder", displayName: "H", email: "held@example.com" })
      const asker = yield* accounts.createCarbon({ id: "c:asker", displayName: "A", email: "asker@example.com" })
      const pending = yield* contacts.addPendingContact(asker.uuid, "email", "  Held@Example.com ")
      expect(pending).toEqual({ address: "held@example.com", verified_at: null, is_primary: false, created_at: new Date(NOW) })
      const again = yield* contacts.addPendingContact(asker.uuid, "email", "held@example.com")
      expect(again).toEqual(pending)
      const own = yield* contacts.addPendingContact(asker.uuid, "email", "asker@example.com")
      expect(own).toMatchObject({ verified_at: new Date(NOW), is_primary: true })
      expect(addressesOf(yield* contacts.contactsOf(asker.uuid, "email"))).toEqual([
        ["asker@example.com", true, true],
        ["held@example.com", false, false]
      ])
      const bad = yield* Effect.flip(contacts.addPendingContact(asker.uuid, "phone", "555 0100"))
      expect(bad).toMatchObject({ code: "validation_failed", details: { fields: { phone: expect.any(String) } } })
      const nobody = yield* Effect.flip(contacts.addPendingContact("zzzz", "email", "x@example.com"))
      expect(nobody.code).toBe("account_not_found")
      const phones = Array.from({ length: 10 }, (_, n) => contacts.addPendingContact(asker.uuid, "phone", `+1555030${n}000`))
      yield* Effect.all(phones, { concurrency: "unbounded" })
      const eleventh = yield* Effect.flip(contacts.addPendingContact(asker.uuid, "phone", "+15550310000"))
      expect(eleventh).toMatchObject({ code: "phone_limit_reached", details: { limit: 10 } })
    }))

  it.effect("verifies a pending address: first verified is primary; refused when held elsewhere or gone", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const owner = yield* accounts.createCarbon({ id: "c:verifier", displayName: "V", email: "v@example.com" })
      yield* contacts.addPendingContact(owner.uuid, "phone", "+15550400000")
      const phone = yield* contacts.verifyPendingContact(owner.uuid, "phone", "+15550400000")
      expect(phone).toMatchObject({ verified_at: new Date(NOW), is_primary: true })
      const notAdded = yield* Effect.flip(contacts.verifyPendingContact(owner.uuid, "email", "never@example.com"))
      expect(notAdded).toMatchObject({ code: "email_not_found", status: 404 })

      const rival = yield* accounts.createCarbon({ id: "c:rival", displayName: "R", email: "r@example.com" })
      yield* contacts.addPendingContact(owner.uuid, "email", "both@example.com")
      yield* contacts.addPendingContact(rival.uuid, "email", "both@example.com")
      yield* contacts.verifyPendingContact(rival.uuid, "email", "both@example.com")
      const lost = yield* Effect.flip(contacts.verifyPendingContact(owner.uuid, "email", "both@example.com"))
      expect(lost).toMatchObject({ code: "email_in_use", status: 409 })
      expect(addressesOf(yield* contacts.contactsOf(owner.uuid, "email"))).toEqual([["v@example.com", true, true]])
    }))

  it.effect("makes a verified address primary, one primary at a time", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const owner = yield* accounts.createCarbon({ id: "c:primary", displayName: "P", email: "p1@example.com" })
      yield* contacts.addPendingContact(owner.uuid, "email", "p2@example.com")
      const unverified = yield* Effect.flip(contacts.makePrimaryContact(owner.uuid, "email", "p2@example.com"))
      expect(unverified).toMatchObject({ code: "email_not_verified", status: 409 })
      yield* contacts.verifyPendingContact(owner.uuid, "email", "p2@example.com")
      const made = yield* contacts.makePrimaryContact(owner.uuid, "email", "p2@example.com")
      expect(made.is_primary).toBe(true)
      expect(addressesOf(yield* contacts.contactsOf(owner.uuid, "email"))).toEqual([
        ["p2@example.com", true, true],
        ["p1@example.com", true, false]
      ])
      expect((yield* contacts.makePrimaryContact(owner.uuid, "email", "p2@example.com")).is_primary).toBe(true)
      const missing = yield* Effect.flip(contacts.makePrimaryContact(owner.uuid, "phone", "+15550500000"))
      expect(missing).toMatchObject({ code: "phone_not_found", status: 404 })
    }))

  it.effect("removes addresses but keeps a verified one, and the primary while its channel has another", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const owner = yield* accounts.createCarbon({ id: "c:remover", displayName: "R", email: "keep@example.com" })
      yield* contacts.addPendingContact(owner.uuid, "email", "pending@example.com")
      yield* contacts.removeContact(owner.uuid, "email", "pending@example.com")
      const gone = yield* Effect.flip(contacts.removeContact(owner.uuid, "email", "pending@example.com"))
      expect(gone.code).toBe("email_not_found")
      const last = yield* Effect.flip(contacts.removeContact(owner.uuid, "email", "keep@example.com"))
      expect(last).toMatchObject({ code: "last_verified_contact", status: 409 })

      yield* contacts.addPendingContact(owner.uuid, "email", "second@example.com")
      yield* contacts.verifyPendingContact(owner.uuid, "email", "second@example.com")
      const primary = yield* Effect.flip(contacts.removeContact(owner.uuid, "email", "keep@example.com"))
      expect(primary).toMatchObject({ code: "contact_is_primary", status: 409 })
      yield* contacts.removeContact(owner.uuid, "email", "second@example.com")
      expect(addressesOf(yield* contacts.contactsOf(owner.uuid, "email"))).toEqual([["keep@example.com", true, true]])
    }))

  it.effect("two removals racing for the last verified email and phone: exactly one goes", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const owner = yield* accounts.createCarbon({
        id: "c:racer",
        displayName: "R",
        email: "race@example.com",
        phone: "+15550600000"
      })
      const results = yield* Effect.all([
        Effect.exit(contacts.removeContact(owner.uuid, "email", "race@example.com")),
        Effect.exit(contacts.removeContact(owner.uuid, "phone", "+15550600000"))
      ], { concurrency: "unbounded" })
      expect(results.filter(Exit.isSuccess)).toHaveLength(1)
      const left = [...yield* contacts.contactsOf(owner.uuid, "email"), ...yield* contacts.contactsOf(owner.uuid, "phone")]
      expect(left).toHaveLength(1)
    }))
})
