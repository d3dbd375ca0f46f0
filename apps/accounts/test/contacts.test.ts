import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect } from "effect"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { addsPerAccount } from "../src/contacts/policy.ts"
import { uniqueEmail, uniquePhone } from "./support/addresses.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { otherCode, signedInCarbon, withCodeTo } from "./support/contacts.ts"
import { fetchAnswer } from "./support/http.ts"

const emailPath = (email: string) => `/v1/me/emails/${encodeURIComponent(email)}`
const addedDirectly = (accountUuid: string, channel: "email" | "phone", addresses: ReadonlyArray<string>) =>
  Effect.flatMap(ContactsRepo, (contacts) =>
    Effect.forEach(addresses, (address) => Effect.orDie(contacts.addPendingContact(accountUuid, channel, address)))).pipe(
      Effect.provide(ContactsRepo.Default)
    )

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("/v1/me/emails and /v1/me/phones", (it) => {
  it.effect("adding an email sends a code; the code verifies it; the list shows both states", () =>
    Effect.gen(function*() {
      const primary = uniqueEmail("first")
      const { api } = yield* signedInCarbon({ email: primary })
      const added = uniqueEmail("second")
      const sent = yield* withCodeTo(added, api.post("/v1/me/emails", { email: `  ${added.toUpperCase()} ` }))
      expect(sent.result.status).toBe(202)
      expect(sent.result.headers.get("cache-control")).toBe("no-store")
      expect(sent.result.body).toEqual({
        challenge_id: expect.stringMatching(/^vch_/),
        channel: "email",
        destination: "s***@example.com",
        expires_at: expect.any(String),
        resend_available_at: expect.any(String)
      })
      expect(sent.message.text).toContain(sent.code)
      expect(sent.message.text).not.toContain(primary)

      const pending = yield* api.get("/v1/me/emails")
      expect(pending.status).toBe(200)
      expect(pending.body).toEqual({
        items: [
          { address: primary, verified: true, primary: true, added_at: expect.any(String), verified_at: expect.any(String) },
          { address: added, verified: false, primary: false, added_at: expect.any(String), verified_at: null }
        ],
        next_cursor: null
      })

      const verified = yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
      expect(verified.status).toBe(200)
      expect(verified.body).toMatchObject({ address: added, verified: true, primary: false })
      expect(Date.parse(verified.body.verified_at)).not.toBeNaN()
      const reused = yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
      expect(reused.status).toBe(409)
      expect(reused.body.error.code).toBe("code_already_used")
      expect((yield* api.get("/v1/me/emails")).body.items.map((item: { verified: boolean }) => item.verified)).toEqual([
        true,
        true
      ])
    }))

  it.effect("the emails and phones lists page with limit and cursor, primary first", () =>
    Effect.gen(function*() {
      const primary = uniqueEmail("paged")
      const { api, carbon } = yield* signedInCarbon({ email: primary })
      const pending = [uniqueEmail("paged-a"), uniqueEmail("paged-b")]
      yield* addedDirectly(carbon.uuid, "email", pending)
      const first = yield* api.get("/v1/me/emails?limit=2")
      expect(first.body.items).toHaveLength(2)
      const second = yield* api.get(`/v1/me/emails?limit=2&cursor=${first.body.next_cursor}`)
      expect(second.body.items).toHaveLength(1)
      expect(second.body.next_cursor).toBeNull()
      const seen = [...first.body.items, ...second.body.items].map((item: { address: string }) => item.address)
      expect(seen[0]).toBe(primary)
      expect(seen.slice(1).sort()).toEqual([...pending].sort())
      const phones = [uniquePhone(1), uniquePhone(2)]
      yield* addedDirectly(carbon.uuid, "phone", phones)
      const onePhone = yield* api.get("/v1/me/phones?limit=1")
      expect(onePhone.body.items).toHaveLength(1)
      const nextPhone = yield* api.get(`/v1/me/phones?limit=1&cursor=${onePhone.body.next_cursor}`)
      expect([onePhone.body.items[0].address, nextPhone.body.items[0].address].sort()).toEqual([...phones].sort())
      expect((yield* api.get("/v1/me/phones?cursor=nope")).body.error.code).toBe("invalid_cursor")
    }))

  it.effect("phones: E.164 by SMS, the first verified becomes primary, paths take the encoded number", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon()
      const phone = `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`
      const spaced = `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`
      const sent = yield* withCodeTo(phone, api.post("/v1/me/phones", { phone: spaced }))
      expect(sent.result.status).toBe(202)
      expect(sent.result.body).toMatchObject({ channel: "sms", destination: `+14******${phone.slice(-3)}` })
      expect(sent.message.channel).toBe("sms")
      const verified = yield* api.post("/v1/me/phones/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
      expect(verified.status).toBe(200)
      expect(verified.body).toMatchObject({ address: phone, verified: true, primary: true })

      const second = `+44${String(Math.floor(Math.random() * 1e9)).padStart(9, "1")}`
      const sentSecond = yield* withCodeTo(second, api.post("/v1/me/phones", { phone: second }))
      yield* api.post("/v1/me/phones/verify", { challenge_id: sentSecond.result.body.challenge_id, code: sentSecond.code })
      const made = yield* api.post(`/v1/me/phones/${encodeURIComponent(second)}/primary`)
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({ address: second, primary: true })
      const list = yield* api.get("/v1/me/phones")
      expect(list.body.items.map((item: { address: string; primary: boolean }) => [item.address, item.primary])).toEqual([
        [second, true],
        [phone, false]
      ])
      // A bare `+` in a path is a plus, not a space.
      const bare = yield* api.del(`/v1/me/phones/${phone}`)
      expect(bare.status).toBe(204)
      const badPhone = yield* api.post("/v1/me/phones", { phone: "415 555 0100" })
      expect(badPhone.status).toBe(422)
      expect(badPhone.body.error.details.fields).toHaveProperty("phone")
    }))

  it.effect("an unverified phone cannot be made primary: 409 phone_not_verified", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon({ email: uniqueEmail("phoneless") })
      const phone = uniquePhone(1)
      const sent = yield* withCodeTo(phone, api.post("/v1/me/phones", { phone }))
      expect(sent.result.status).toBe(202)
      const refused = yield* api.post(`/v1/me/phones/${encodeURIComponent(phone)}/primary`)
      expect([refused.status, refused.body.error.code]).toEqual([409, "phone_not_verified"])
    }))

  it.effect("make primary: only a verified address of the caller; paths are decoded and normalized", () =>
    Effect.gen(function*() {
      const first = uniqueEmail("p1")
      const { api } = yield* signedInCarbon({ email: first })
      const second = uniqueEmail("p2")
      const sent = yield* withCodeTo(second, api.post("/v1/me/emails", { email: second }))
      const unverified = yield* api.post(`${emailPath(second)}/primary`)
      expect(unverified.status).toBe(409)
      expect(unverified.body.error.code).toBe("email_not_verified")
      yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })

      // `@` is allowed bare in a path; any case names the same address.
      const made = yield* api.post(`/v1/me/emails/${second.toUpperCase()}/primary`)
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({ address: second, primary: true, verified: true })
      const list = yield* api.get("/v1/me/emails")
      expect(list.body.items.map((item: { address: string; primary: boolean }) => [item.address, item.primary])).toEqual([
        [second, true],
        [first, false]
      ])
      const again = yield* api.post(`${emailPath(second)}/primary`)
      expect(again.status).toBe(200)

      const unknown = yield* api.post(`${emailPath(uniqueEmail("nobody"))}/primary`)
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe("email_not_found")
      const malformed = yield* api.post(`${emailPath("not-an-email")}/primary`)
      expect(malformed.status).toBe(400)
      expect(malformed.body.error).toMatchObject({ code: "invalid_path", details: { parameter: "email" } })
      // Another account's address is not found either.
      const stranger = yield* signedInCarbon()
      const foreign = yield* stranger.api.post(`${emailPath(second)}/primary`)
      expect(foreign.status).toBe(404)
    }))

  it.effect("remove: a pending one goes; the primary waits for another primary; the last verified stays", () =>
    Effect.gen(function*() {
      const first = uniqueEmail("r1")
      const { api } = yield* signedInCarbon({ email: first })
      const pending = uniqueEmail("r-pending")
      yield* withCodeTo(pending, api.post("/v1/me/emails", { email: pending }))
      const removed = yield* api.del(emailPath(pending))
      expect(removed.status).toBe(204)
      const gone = yield* api.del(emailPath(pending))
      expect(gone.status).toBe(404)
      expect(gone.body.error.code).toBe("email_not_found")

      const last = yield* api.del(emailPath(first))
      expect(last.status).toBe(409)
      expect(last.body.error.code).toBe("last_verified_contact")

      const second = uniqueEmail("r2")
      const sent = yield* withCodeTo(second, api.post("/v1/me/emails", { email: second }))
      yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
      const primary = yield* api.del(emailPath(first))
      expect(primary.status).toBe(409)
      expect(primary.body.error.code).toBe("contact_is_primary")
      expect((yield* api.del(emailPath(second))).status).toBe(204)

      // With a verified phone, the only email (the primary) can go; then the phone is the last.
      const phone = `+1202${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`
      const sms = yield* withCodeTo(phone, api.post("/v1/me/phones", { phone }))
      yield* api.post("/v1/me/phones/verify", { challenge_id: sms.result.body.challenge_id, code: sms.code })
      expect((yield* api.del(emailPath(first))).status).toBe(204)
      expect((yield* api.get("/v1/me/emails")).body.items).toEqual([])
      const lastPhone = yield* api.del(`/v1/me/phones/${encodeURIComponent(phone)}`)
      expect(lastPhone.status).toBe(409)
      expect(lastPhone.body.error.code).toBe("last_verified_contact")
    }))

  describe("addresses of other accounts", () => {
    it.effect("adding one verified elsewhere answers like any other; only the code's holder learns it is in use", () =>
      Effect.gen(function*() {
        const taken = uniqueEmail("taken")
        yield* signedInCarbon({ email: taken })
        const { api } = yield* signedInCarbon()
        const sent = yield* withCodeTo(taken, api.post("/v1/me/emails", { email: taken }))
        expect(sent.result.status).toBe(202)
        expect(Object.keys(sent.result.body).sort()).toEqual(
          ["challenge_id", "channel", "destination", "expires_at", "resend_available_at"]
        )
        expect((yield* api.get("/v1/me/emails")).body.items[1]).toMatchObject({ address: taken, verified: false })
        const verified = yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
        expect(verified.status).toBe(409)
        expect(verified.body.error.code).toBe("email_in_use")
      }))

    it.effect("adding one already verified on the caller's own account is 409 email_in_use", () =>
      Effect.gen(function*() {
        const mine = uniqueEmail("mine")
        const { api } = yield* signedInCarbon({ email: mine })
        const again = yield* api.post("/v1/me/emails", { email: mine.toUpperCase() })
        expect(again.status).toBe(409)
        expect(again.body.error.code).toBe("email_in_use")
        expect(again.body.error.message).toContain("your account")
      }))

    it.effect("an address another account verified first is no longer pending here; a removed one cannot be verified", () =>
      Effect.gen(function*() {
        const contested = uniqueEmail("contested")
        const slow = yield* signedInCarbon()
        const fast = yield* signedInCarbon()
        const slowSent = yield* withCodeTo(contested, slow.api.post("/v1/me/emails", { email: contested }))
        const fastSent = yield* withCodeTo(contested, fast.api.post("/v1/me/emails", { email: contested }))
        const won = yield* fast.api.post("/v1/me/emails/verify", {
          challenge_id: fastSent.result.body.challenge_id,
          code: fastSent.code
        })
        expect(won.status).toBe(200)
        expect((yield* slow.api.get("/v1/me/emails")).body.items).toHaveLength(1)
        const lost = yield* slow.api.post("/v1/me/emails/verify", {
          challenge_id: slowSent.result.body.challenge_id,
          code: slowSent.code
        })
        expect(lost.status).toBe(409)
        expect(lost.body.error.code).toBe("email_in_use")

        const dropped = uniqueEmail("dropped")
        const sent = yield* withCodeTo(dropped, slow.api.post("/v1/me/emails", { email: dropped }))
        yield* slow.api.del(emailPath(dropped))
        const late = yield* slow.api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })
        expect(late.status).toBe(404)
        expect(late.body.error.code).toBe("email_not_found")
      }))
  })

  describe("codes", () => {
    it.effect("resend sends a new code and the old one stops working", () =>
      Effect.gen(function*() {
        const { api } = yield* signedInCarbon()
        const address = uniqueEmail("resend")
        const first = yield* withCodeTo(address, api.post("/v1/me/emails", { email: address }))
        const challengeId = first.result.body.challenge_id
        const second = yield* withCodeTo(address, api.post("/v1/me/emails/resend", { challenge_id: challengeId }))
        expect(second.result.status).toBe(202)
        expect(second.result.body).toMatchObject({ challenge_id: challengeId, destination: "r***@example.com" })
        if (second.code !== first.code) {
          const old = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: first.code })
          expect(old.status).toBe(422)
          expect(old.body.error.code).toBe("invalid_code")
        }
        const right = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: second.code })
        expect(right.status).toBe(200)
        const used = yield* api.post("/v1/me/emails/resend", { challenge_id: challengeId })
        expect(used.status).toBe(409)
        expect(used.body.error.code).toBe("code_already_used")
        const unknown = yield* api.post("/v1/me/emails/resend", { challenge_id: "vch_unknown" })
        expect(unknown.status).toBe(404)
        expect(unknown.body.error.code).toBe("challenge_not_found")
      }))

    it.effect("wrong, malformed, unknown, expired and locked codes are refused with their errors", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { api } = yield* signedInCarbon()
        const address = uniqueEmail("codes")
        const sent = yield* withCodeTo(address, api.post("/v1/me/emails", { email: address }))
        const challengeId: string = sent.result.body.challenge_id
        const wrong = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: otherCode(sent.code) })
        expect(wrong.status).toBe(422)
        expect(wrong.body.error).toMatchObject({ code: "invalid_code", details: { remaining_attempts: 9 } })
        const malformed = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: "12ab" })
        expect(malformed.status).toBe(422)
        expect(malformed.body.error).toMatchObject({ code: "validation_failed", details: { fields: { code: expect.any(String) } } })
        const unknown = yield* api.post("/v1/me/emails/verify", { challenge_id: "vch_unknown", code: "123456" })
        expect(unknown.status).toBe(404)
        expect(unknown.body.error.code).toBe("challenge_not_found")

        yield* sql`UPDATE verification_challenges SET expires_at = ${new Date(Date.now() - 1000)} WHERE id = ${challengeId}`
        const expired = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: sent.code })
        expect(expired.status).toBe(410)
        expect(expired.body.error.code).toBe("code_expired")

        const fresh = yield* withCodeTo(address, api.post("/v1/me/emails/resend", { challenge_id: challengeId }))
        for (let attempt = 2; attempt <= 10; attempt++) {
          const answer = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: otherCode(fresh.code) })
          expect(answer.body.error.code).toBe("invalid_code")
        }
        const locked = yield* api.post("/v1/me/emails/verify", { challenge_id: challengeId, code: fresh.code })
        expect(locked.status).toBe(423)
        expect(locked.body.error.code).toBe("verification_locked")
        expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0)
      }))
  })

  it.effect("bad bodies and missing credentials", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon()
      const bad = yield* api.post("/v1/me/emails", { email: "not-an-email" })
      expect(bad.status).toBe(422)
      expect(bad.body.error).toMatchObject({ code: "validation_failed", details: { fields: { email: expect.any(String) } } })
      const missing = yield* api.post("/v1/me/emails", {})
      expect(missing.status).toBe(422)
      const { url } = yield* AccountsUnderTest
      for (const path of ["/v1/me/emails", "/v1/me/phones"]) {
        const anonymous = yield* Effect.promise(() => fetchAnswer(`${url}${path}`))
        expect(anonymous.status).toBe(401)
        expect(anonymous.body.error.code).toBe("account_auth_required")
      }
    }))

  // The limits' rules (10 per channel, 20 adds per account, 30 per IP, a re-add counting): contacts-add-rules.test.ts.
  it.effect("a full channel is 409 email_limit_reached or phone_limit_reached with details.limit; a full allowance is 429 with Retry-After", () =>
    Effect.gen(function*() {
      const { api, carbon } = yield* signedInCarbon({}, "198.51.100.10")
      // Each channel filled to its 10 straight through the repository (the primary email is one of them).
      yield* addedDirectly(carbon.uuid, "email", Array.from({ length: 9 }, (_, n) => uniqueEmail(`e${n}`)))
      yield* addedDirectly(carbon.uuid, "phone", Array.from({ length: 10 }, (_, n) => uniquePhone(n)))
      const eleventh = yield* api.post("/v1/me/emails", { email: uniqueEmail("e11") })
      expect(eleventh.status).toBe(409)
      expect(eleventh.body.error).toMatchObject({ code: "email_limit_reached", details: { limit: 10 } })
      const eleventhPhone = yield* api.post("/v1/me/phones", { phone: uniquePhone(10) })
      expect(eleventhPhone.status).toBe(409)
      expect(eleventhPhone.body.error).toMatchObject({ code: "phone_limit_reached", details: { limit: 10 } })

      const other = yield* signedInCarbon({}, "198.51.100.20")
      const limiter = yield* RateLimiter
      for (let n = 0; n < addsPerAccount.limit; n++) yield* enforceRateLimit(limiter, addsPerAccount, other.carbon.uuid)
      const refused = yield* other.api.post("/v1/me/emails", { email: uniqueEmail("late") })
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    }))
})
