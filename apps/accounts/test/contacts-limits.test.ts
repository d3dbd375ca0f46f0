import { expect, layer } from "@effect/vitest"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect } from "effect"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { addsPerAccount } from "../src/contacts/policy.ts"
import { uniqueEmail, uniquePhone } from "./support/addresses.ts"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { signedInCarbon } from "./support/contacts.ts"

const addedDirectly = (accountUuid: string, channel: "email" | "phone", addresses: ReadonlyArray<string>) =>
  Effect.flatMap(ContactsRepo, (contacts) =>
    Effect.forEach(addresses, (address) => Effect.orDie(contacts.addPendingContact(accountUuid, channel, address)))).pipe(
      Effect.provide(ContactsRepo.Default)
    )

/**
 * The limits' answers over HTTP. The rules themselves (10 per channel, 20 adds per account, 30 per IP,
 * a re-add counting) are tested on the contacts routes directly: contacts-add-rules.test.ts.
 */
layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("limits on adding emails and phones, over HTTP", (it) => {
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
