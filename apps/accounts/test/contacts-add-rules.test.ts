import { HttpServerRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { TestDatabase } from "@platform/database"
import { RateLimiter } from "@platform/rate-limit"
import { partialFake } from "@platform/testkit"
import { type ContactChannel, VerificationCodes } from "@platform/verification-codes"
import { Effect, Layer } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { CurrentAccount } from "../src/auth/CurrentAccount.ts"
import { AccountsConfig } from "../src/config.ts"
import { makeContactRoutes } from "../src/contacts/ContactRoutes.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { atNow } from "./support/accountsRepo.ts"
import { uniqueEmail, uniquePhone } from "./support/addresses.ts"
import { createCarbon } from "./support/carbons.ts"

/** Where the fake sent codes, in order. */
const sent: Array<string> = []

/**
 * The contacts routes on a fresh database with the real repositories and rate limiter; sending a code
 * is recorded, and the settings give trustProxy only (the routes read nothing else of them).
 */
const ContactRoutesTest = Layer.mergeAll(
  AccountsRepo.Default,
  ContactsRepo.Default,
  RateLimiter.layer,
  partialFake(AccountsConfig, { trustProxy: true }),
  partialFake(VerificationCodes, {
    send: (input) =>
      Effect.sync(() => {
        sent.push(input.destination)
        const at = "2026-11-01T12:10:00.000Z"
        return { challenge_id: `ch_${randomHex(4)}`, channel: input.channel, destination: input.destination, expires_at: at, resend_available_at: at }
      })
  })
).pipe(Layer.provideMerge(TestDatabase.layer(accountsMigrations)))


/** A new Carbon's contact routes, as its requests from `ip` reach them. */
const carbonFrom = (ip: string) =>
  Effect.gen(function*() {
    const carbon = yield* createCarbon()
    const request = HttpServerRequest.fromWeb(new Request("http://accounts.test/v1/me/emails", { headers: { "x-forwarded-for": ip } }))
    const asCarbon = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        Effect.provideService(CurrentAccount, { uuid: carbon.uuid, signinId: "s_test", clientId: "accounts", via: "bearer" }),
        Effect.provideService(HttpServerRequest.HttpServerRequest, request)
      )
    const add = (channel: ContactChannel, address: string) =>
      asCarbon(Effect.flatMap(makeContactRoutes(channel), (routes) => routes.add(address)))
    const list = (channel: ContactChannel) => asCarbon(Effect.flatMap(makeContactRoutes(channel), (routes) => routes.list({})))
    return { add, list }
  })

layer(ContactRoutesTest)("adding emails and phones: the limits", (it) => {
  it.effect("a Carbon holds 10 emails and 10 phones: the 11th is 409 with details.limit", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* carbonFrom("198.51.100.10")
      // The Carbon's primary email is the first of its 10.
      for (let n = 1; n < 10; n++) yield* carbon.add("email", uniqueEmail(`e${n}`))
      const eleventhEmail = yield* Effect.flip(carbon.add("email", uniqueEmail("e11")))
      expect(eleventhEmail).toMatchObject({ code: "email_limit_reached", status: 409, details: { limit: 10 } })
      expect((yield* carbon.list("email")).items).toHaveLength(10)

      const other = yield* carbonFrom("198.51.100.11")
      for (let n = 0; n < 10; n++) yield* other.add("phone", uniquePhone(n))
      const eleventhPhone = yield* Effect.flip(other.add("phone", uniquePhone(10)))
      expect(eleventhPhone).toMatchObject({ code: "phone_limit_reached", status: 409, details: { limit: 10 } })
    }))

  it.effect("20 adds per 10 minutes per account, emails and phones together: the 21st is 429", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* carbonFrom("198.51.100.20")
      const pending = uniqueEmail("again")
      for (let n = 0; n < 9; n++) yield* carbon.add("email", n === 0 ? pending : uniqueEmail(`a${n}`))
      for (let n = 0; n < 10; n++) yield* carbon.add("phone", uniquePhone(n))
      // Adding a pending address again sends a new code: it counts as an add.
      const before = sent.filter((to) => to === pending).length
      yield* carbon.add("email", pending)
      expect(sent.filter((to) => to === pending).length).toBe(before + 1)
      const refused = yield* Effect.flip(carbon.add("email", pending))
      expect(refused).toMatchObject({ code: "rate_limited", status: 429 })
      expect(refused.message).toContain("20 per 10 minutes per account")
      expect(refused.details).toMatchObject({ retry_after_seconds: expect.any(Number) })
    }))

  it.effect("30 adds per 10 minutes per IP, across accounts: the 31st is 429", () =>
    Effect.gen(function*() {
      yield* atNow
      const ip = "198.51.100.30"
      for (let account = 0; account < 3; account++) {
        const carbon = yield* carbonFrom(ip)
        for (let n = 0; n < 10; n++) {
          yield* (n % 2 === 0 ? carbon.add("email", uniqueEmail(`ip${n}`)) : carbon.add("phone", uniquePhone(n)))
        }
      }
      const last = yield* carbonFrom(ip)
      const refused = yield* Effect.flip(last.add("email", uniqueEmail("ip31")))
      expect(refused).toMatchObject({ code: "rate_limited", status: 429 })
      expect(refused.message).toContain("adding an email or phone allows 30 per 10 minutes per IP")
    }))
})
