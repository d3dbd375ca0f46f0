import { describe, expect, it, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option, TestClock } from "effect"
import { parseAccountId } from "../src/accounts/AccountId.ts"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { IdsRepo } from "../src/accounts/IdsRepo.ts"
import { normalizeEmail, normalizePhone } from "@platform/verification-codes"
import { carbonMe } from "../src/accounts/Me.ts"
import { AccountReposTest, atNow, NOW, reserveHandle } from "./support/accountsRepo.ts"

const DAY = 86_400_000

const idOf = (text: string) => Either.getOrThrow(parseAccountId(text))

const failureOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.flip(effect)

describe("ids, emails and phones as typed", () => {
  it("reads ids case-insensitively and refuses malformed and reserved ones", () => {
    expect(parseAccountId("C:Ada_L-1")).toEqual(Either.right({ kind: "carbon", handle: "ada_l-1" }))
    expect(parseAccountId("SI:robot")).toEqual(Either.right({ kind: "silicon", handle: "robot" }))
    expect(parseAccountId("robot", "silicon")).toEqual(Either.right({ kind: "silicon", handle: "robot" }))
    for (const bad of ["robot", "c:ab", `c:${"a".repeat(31)}`, "c:ada!", "c:ad a", "x:ada", "c:", "c:élan"]) {
      const refused = parseAccountId(bad)
      expect(Either.isLeft(refused) && refused.left.details).toEqual({ reason: "invalid" })
    }
    for (const reserved of ["c:admin", "c:ROOT", "si:api", "c:accounts", "c:undefined", "si:staff"]) {
      const refused = parseAccountId(reserved)
      expect(Either.isLeft(refused) && refused.left).toMatchObject({ code: "invalid_id", status: 422 })
      expect(Either.isLeft(refused) && refused.left.details).toEqual({ reason: "reserved_word" })
    }
  })

  it("normalizes emails (trimmed, lower-cased) and phones (E.164 only)", () => {
    expect(normalizeEmail("  Ada@Example.COM ")).toEqual(Either.right("ada@example.com"))
    for (const bad of ["ada", "ada@", "@example.com", "ada@example", "a b@example.com", "ada@@example.com"]) {
      expect(Either.isLeft(normalizeEmail(bad))).toBe(true)
    }
    expect(normalizePhone("+1 (415) 555-0100")).toEqual(Either.right("+14155550100"))
    expect(normalizePhone("+44.20.7946.0958")).toEqual(Either.right("+442079460958"))
    for (const bad of ["4155550100", "0044 20 7946 0958", "+0 415 555 0100", "+1 415 555 0100 x12", "+1234", "+1234567890123456"]) {
      expect(Either.isLeft(normalizePhone(bad))).toBe(true)
    }
  })
})

layer(AccountReposTest())("AccountsRepo, IdsRepo and ContactsRepo against the database", (it) => {
  it.effect("creates an active Carbon and shows it as the Me view", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const ada = yield* accounts.createCarbon({
        id: "C:Ada_L",
        displayName: "  Ada Lovelace ",
        email: " Ada@Example.COM",
        phone: "+44 20 7946 0958",
        timezone: "europe/london",
        dob: "1990-12-10"
      })
      expect(carbonMe(ada, "https://accounts.test")).toEqual({
        uuid: expect.stringMatching(/^[A-Za-z0-9]{3}$/),
        kind: "carbon",
        id: "c:ada_l",
        display_name: "Ada Lovelace",
        pfp_url: `https://accounts.test/v1/photos/default/${ada.uuid}`,
        dob: "1990-12-10",
        timezone: "Europe/London",
        status: "active",
        created_at: "2026-11-01T12:00:00.000Z",
        updated_at: "2026-11-01T12:00:00.000Z",
        version: 1
      })
      const emails = yield* contacts.contactsOf(ada.uuid, "email")
      const phones = yield* contacts.contactsOf(ada.uuid, "phone")
      expect(emails).toEqual([
        { address: "ada@example.com", verified_at: new Date(NOW), is_primary: true, created_at: new Date(NOW) }
      ])
      expect(phones.map((phone) => [phone.address, phone.is_primary])).toEqual([["+442079460958", true]])
      const defaults = yield* accounts.createCarbon({ id: "c:plain", displayName: "Plain", email: "plain@example.com" })
      expect(carbonMe(defaults, "https://accounts.test")).toMatchObject({ timezone: "UTC", dob: null })
    }))

  it.effect("finds an account by uuid, by id and by verified email or phone, normalized", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const grace = yield* accounts.createCarbon({
        id: "c:grace",
        displayName: "Grace",
        email: "grace@navy.example",
        phone: "+1 202 555 0147"
      })
      const uuidOf = Option.map((row: { readonly uuid: string }) => row.uuid)
      expect(uuidOf(yield* accounts.findByUuid(grace.uuid))).toEqual(Option.some(grace.uuid))
      expect(uuidOf(yield* accounts.findById(idOf("C:GRACE")))).toEqual(Option.some(grace.uuid))
      expect(yield* accounts.findById(idOf("si:grace"))).toEqual(Option.none())
      expect(uuidOf(yield* contacts.findByVerifiedEmail("  GRACE@Navy.Example "))).toEqual(Option.some(grace.uuid))
      expect(uuidOf(yield* contacts.findByVerifiedPhone("+1 (202) 555-0147"))).toEqual(Option.some(grace.uuid))
      expect(yield* contacts.findByVerifiedEmail("nobody@example.com")).toEqual(Option.none())
      expect(yield* accounts.findByUuid("zzzz")).toEqual(Option.none())
      expect(yield* accounts.findByUuid("not a uuid")).toEqual(Option.none())
      const badPhone = yield* failureOf(contacts.findByVerifiedPhone("202 555 0147"))
      expect(badPhone).toMatchObject({ code: "validation_failed", details: { fields: { phone: expect.any(String) } } })
    }))

  it.effect("a pending address does not find its account; only a verified one does", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const owner = yield* accounts.createCarbon({ id: "c:pending", displayName: "P", email: "p@example.com" })
      yield* contacts.addContact({ accountUuid: owner.uuid, channel: "email", address: "later@example.com", verified: false })
      expect(yield* contacts.findByVerifiedEmail("later@example.com")).toEqual(Option.none())
      const verified = yield* contacts.addContact({
        accountUuid: owner.uuid,
        channel: "email",
        address: "LATER@example.com",
        verified: true
      })
      expect(verified).toMatchObject({ address: "later@example.com", verified_at: new Date(NOW), is_primary: false })
      expect(Option.map(yield* contacts.findByVerifiedEmail("later@example.com"), (row) => row.uuid)).toEqual(
        Option.some(owner.uuid)
      )
    }))

  it.effect("refuses malformed and reserved ids with 422 invalid_id, and a Silicon id for a Carbon", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const attempt = (id: string) => failureOf(accounts.createCarbon({ id, displayName: "X", email: "x@example.com" }))
      expect(yield* attempt("c:no")).toMatchObject({ code: "invalid_id", details: { reason: "invalid" } })
      expect(yield* attempt("c:Admin")).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      expect(yield* attempt("c:accounts")).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      expect(yield* attempt("si:robot")).toMatchObject({ code: "invalid_id", details: { reason: "invalid" } })
    }))

  it.effect("refuses bad values field by field with 422 validation_failed", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const refused = yield* failureOf(accounts.createCarbon({
        id: "c:fields",
        displayName: "bad\u0007name",
        email: "not-an-email",
        phone: "555 0100",
        timezone: "Mars/Olympus",
        dob: "2030-01-01"
      }))
      expect(refused.code).toBe("validation_failed")
      expect(Object.keys((refused.details as { fields: object }).fields).sort()).toEqual(
        ["display_name", "dob", "email", "phone", "timezone"]
      )
      const noContact = yield* failureOf(accounts.createCarbon({ id: "c:fields", displayName: "N" }))
      expect(noContact).toMatchObject({ code: "validation_failed", details: { fields: { email: expect.any(String) } } })
      for (const dob of ["1899-12-31", "2001-02-29", "01-01-2000"]) {
        const bad = yield* failureOf(accounts.createCarbon({ id: "c:fields", displayName: "N", email: "n@x.io", dob }))
        expect(bad.code).toBe("validation_failed")
      }
      expect([...Array(101)].map(() => "é").join("").length).toBe(101)
      const long = yield* failureOf(accounts.createCarbon({ id: "c:fields", displayName: "é".repeat(101), email: "n@x.io" }))
      expect(long.code).toBe("validation_failed")
      expect(yield* accounts.findById(idOf("c:fields"))).toEqual(Option.none())
    }))

  it.effect("a taken id is 409 id_taken with free suggestions, whatever its case", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const ids = yield* IdsRepo
      yield* accounts.createCarbon({ id: "c:linus", displayName: "Linus", email: "linus@example.com" })
      const taken = yield* failureOf(accounts.createCarbon({ id: "C:LINUS", displayName: "L", email: "l2@example.com" }))
      expect(taken).toMatchObject({ code: "id_taken", status: 409 })
      const suggestions = (taken.details as { suggestions: Array<string> }).suggestions
      expect(suggestions.length).toBeGreaterThan(0)
      expect(suggestions.length).toBeLessThanOrEqual(3)
      for (const suggestion of suggestions) {
        expect(suggestion).toMatch(/^c:linus[a-z0-9_-]{1,4}$/)
        expect((yield* ids.idAvailability(idOf(suggestion)))._tag).toBe("Free")
      }
      expect(taken.message).toContain(suggestions[0])
    }))

  it.effect("handles are one namespace: c:x and si:x cannot belong to two accounts", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const ids = yield* IdsRepo
      yield* accounts.createCarbon({ id: "c:shared", displayName: "S", email: "shared@example.com" })
      const asSilicon = yield* ids.idAvailability(idOf("si:shared"))
      expect(asSilicon._tag).toBe("Taken")
    }))

  it.effect("an id reserved for its previous owner is 409 id_reserved until the reservation ends", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const ids = yield* IdsRepo
      const owner = yield* accounts.createCarbon({ id: "c:newname", displayName: "O", email: "owner@example.com" })
      const until = new Date(NOW + 10 * DAY)
      yield* reserveHandle("oldname", owner.uuid, until)
      const reserved = yield* failureOf(accounts.createCarbon({ id: "c:oldname", displayName: "T", email: "t@example.com" }))
      expect(reserved).toMatchObject({
        code: "id_reserved",
        status: 409,
        details: { reserved_until: until.toISOString() }
      })
      const availability = yield* ids.idAvailability(idOf("c:oldname"))
      expect(availability._tag).toBe("Reserved")
      yield* TestClock.adjust(10 * DAY)
      expect((yield* ids.idAvailability(idOf("c:oldname")))._tag).toBe("Free")
      const taker = yield* accounts.createCarbon({ id: "c:oldname", displayName: "T", email: "t@example.com" })
      expect(carbonMe(taker, "https://accounts.test").id).toBe("c:oldname")
    }))

  it.effect("an email verified on one account is refused on another; nothing of the refused account remains", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const sql = yield* SqlClient.SqlClient
      yield* accounts.createCarbon({ id: "c:first", displayName: "F", email: "one@example.com", phone: "+15550000001" })
      const [counter] = yield* sql<{ readonly next: string }>`SELECT next_index::text AS next FROM account_uuid_allocator`
      const email = yield* failureOf(accounts.createCarbon({ id: "c:second", displayName: "S", email: " ONE@example.com" }))
      expect(email).toMatchObject({ code: "email_in_use", status: 409 })
      const phone = yield* failureOf(
        accounts.createCarbon({ id: "c:second", displayName: "S", email: "two@example.com", phone: "+1 555 000 0001" })
      )
      expect(phone).toMatchObject({ code: "phone_in_use", status: 409 })
      expect(yield* accounts.findById(idOf("c:second"))).toEqual(Option.none())
      const [after] = yield* sql<{ readonly next: string }>`SELECT next_index::text AS next FROM account_uuid_allocator`
      expect(after).toEqual(counter)
    }))

  it.effect("verifying an address removes it from accounts where it was only pending", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const a = yield* accounts.createCarbon({ id: "c:claimer", displayName: "A", email: "claimer@example.com" })
      const b = yield* accounts.createCarbon({ id: "c:squatter", displayName: "B", email: "squatter@example.com" })
      yield* contacts.addContact({ accountUuid: b.uuid, channel: "email", address: "contested@example.com", verified: false })
      yield* contacts.addContact({ accountUuid: a.uuid, channel: "email", address: "contested@example.com", verified: true })
      expect((yield* contacts.contactsOf(b.uuid, "email")).map((row) => row.address)).toEqual(["squatter@example.com"])
      const again = yield* failureOf(
        contacts.addContact({ accountUuid: b.uuid, channel: "email", address: "contested@example.com", verified: false })
      )
      expect(again.code).toBe("email_in_use")
      const missing = yield* failureOf(
        contacts.addContact({ accountUuid: "nope", channel: "email", address: "x@example.com", verified: false })
      )
      expect(missing.code).toBe("account_not_found")
    }))

  it.effect("a Carbon holds at most 10 emails and 10 phones, also when adds race", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const many = yield* accounts.createCarbon({ id: "c:collector", displayName: "C", email: "c0@example.com" })
      const adds = Array.from({ length: 15 }, (_, n) =>
        Effect.either(contacts.addContact({
          accountUuid: many.uuid,
          channel: "email",
          address: `c${n + 1}@example.com`,
          verified: n % 2 === 0
        })))
      const results = yield* Effect.all(adds, { concurrency: "unbounded" })
      const refused = results.flatMap((result) => (result._tag === "Left" ? [result.left] : []))
      expect(results.filter((result) => result._tag === "Right")).toHaveLength(9)
      expect(refused.map((error) => error.code)).toEqual(Array(6).fill("email_limit_reached"))
      expect(refused[0]?.details).toEqual({ limit: 10 })
      expect(yield* contacts.contactsOf(many.uuid, "email")).toHaveLength(10)
      // Verifying one already on the account is not an eleventh.
      const pending = (yield* contacts.contactsOf(many.uuid, "email")).find((row) => row.verified_at === null)!
      const verified = yield* contacts.addContact({
        accountUuid: many.uuid,
        channel: "email",
        address: pending.address,
        verified: true
      })
      expect(verified.verified_at).toEqual(new Date(NOW))

      for (let n = 0; n < 10; n++) {
        yield* contacts.addContact({ accountUuid: many.uuid, channel: "phone", address: `+1555010${String(n).padStart(4, "0")}`, verified: false })
      }
      const eleventh = yield* failureOf(
        contacts.addContact({ accountUuid: many.uuid, channel: "phone", address: "+15550109999", verified: false })
      )
      expect(eleventh).toMatchObject({ code: "phone_limit_reached", details: { limit: 10 } })
    }))

  it.effect("the first verified address is primary; pending ones never are; the database keeps one primary", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const contacts = yield* ContactsRepo
      const sql = yield* SqlClient.SqlClient
      const owner = yield* accounts.createCarbon({ id: "c:phoneonly", displayName: "P", phone: "+15550200000" })
      expect(yield* contacts.contactsOf(owner.uuid, "email")).toEqual([])
      const pending = yield* contacts.addContact({ accountUuid: owner.uuid, channel: "email", address: "p1@example.com", verified: false })
      expect(pending.is_primary).toBe(false)
      const first = yield* contacts.addContact({ accountUuid: owner.uuid, channel: "email", address: "p2@example.com", verified: true })
      const second = yield* contacts.addContact({ accountUuid: owner.uuid, channel: "email", address: "p3@example.com", verified: true })
      expect([first.is_primary, second.is_primary]).toEqual([true, false])
      expect((yield* contacts.contactsOf(owner.uuid, "email")).map((row) => row.address)[0]).toBe("p2@example.com")
      const twoPrimaries = yield* Effect.either(
        sql`UPDATE account_emails SET is_primary = true WHERE address = 'p3@example.com'`
      )
      expect(twoPrimaries._tag).toBe("Left")
      const upperHandle = yield* Effect.either(
        sql`UPDATE accounts SET handle = 'PhoneOnly' WHERE uuid = ${owner.uuid}`
      )
      expect(upperHandle._tag).toBe("Left")
    }))
})
