import { expect, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { signedInCarbon } from "./support/contacts.ts"

const unique = (name: string) => `${name}-${randomHex(6)}@example.com`
const phoneNumber = (n: number) => `+1650${randomHex(3).replace(/[a-f]/g, "7")}${String(n).padStart(4, "0")}`

layer(AccountsTest({ trustProxy: true }), { excludeTestServices: true })("limits on adding emails and phones", (it) => {
  it.effect("a Carbon holds 10 emails and 10 phones: the 11th is 409 with details.limit", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon({}, "198.51.100.10")
      for (let n = 1; n < 10; n++) {
        expect((yield* api.post("/v1/me/emails", { email: unique(`e${n}`) })).status).toBe(202)
      }
      const eleventhEmail = yield* api.post("/v1/me/emails", { email: unique("e11") })
      expect(eleventhEmail.status).toBe(409)
      expect(eleventhEmail.body.error).toMatchObject({ code: "email_limit_reached", details: { limit: 10 } })
      expect((yield* api.get("/v1/me/emails")).body.items).toHaveLength(10)

      const other = yield* signedInCarbon({}, "198.51.100.11")
      for (let n = 0; n < 10; n++) {
        expect((yield* other.api.post("/v1/me/phones", { phone: phoneNumber(n) })).status).toBe(202)
      }
      const eleventhPhone = yield* other.api.post("/v1/me/phones", { phone: phoneNumber(10) })
      expect(eleventhPhone.status).toBe(409)
      expect(eleventhPhone.body.error).toMatchObject({ code: "phone_limit_reached", details: { limit: 10 } })
    }))

  it.effect("20 adds per 10 minutes per account, emails and phones together: the 21st is 429", () =>
    Effect.gen(function*() {
      const { api } = yield* signedInCarbon({}, "198.51.100.20")
      const pending = unique("again")
      const adds = [
        ...Array.from({ length: 9 }, (_, n) => api.post("/v1/me/emails", { email: n === 0 ? pending : unique(`a${n}`) })),
        ...Array.from({ length: 10 }, (_, n) => api.post("/v1/me/phones", { phone: phoneNumber(n) })),
        // Adding a pending address again sends a new code: it counts as an add.
        api.post("/v1/me/emails", { email: pending })
      ]
      for (const add of adds) expect((yield* add).status).toBe(202)
      const refused = yield* api.post("/v1/me/emails", { email: pending })
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(refused.body.error.message).toContain("20 per 10 minutes per account")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    }))

  it.effect("30 adds per 10 minutes per IP, across accounts: the 31st is 429", () =>
    Effect.gen(function*() {
      const ip = "198.51.100.30"
      for (let account = 0; account < 3; account++) {
        const { api } = yield* signedInCarbon({}, ip)
        for (let n = 0; n < 10; n++) {
          const channel = n % 2 === 0 ? "emails" : "phones"
          const body = channel === "emails" ? { email: unique(`ip${n}`) } : { phone: phoneNumber(n) }
          expect((yield* api.post(`/v1/me/${channel}`, body)).status).toBe(202)
        }
      }
      const { api } = yield* signedInCarbon({}, ip)
      const refused = yield* api.post("/v1/me/emails", { email: unique("ip31") })
      expect(refused.status).toBe(429)
      expect(refused.body.error.message).toContain("adding an email or phone allows 30 per 10 minutes per IP")
    }))
})
