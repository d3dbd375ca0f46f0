import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { Browser } from "./support/browser.ts"
import { browser, makeFlowApp, proveEmail, run } from "./support/flows.ts"

const HOURS_48 = 48 * 3600

/** A browser that carries the given cookies and nothing else. */
const browserWith = (cookies: Record<string, string | undefined>) =>
  Effect.map(AccountsUnderTest, ({ url }) => {
    const b = new Browser(url)
    for (const [name, value] of Object.entries(cookies)) if (value !== undefined) b.cookies.set(name, value)
    return b
  })

/** Whether an account holds `email` verified. */
const emailTaken = (email: string) =>
  Effect.flatMap(ContactsRepo, (contacts) => contacts.findByVerifiedContact("email", email)).pipe(
    Effect.map(Option.isSome),
    Effect.orDie,
    Effect.provide(ContactsRepo.Default)
  )

layer(AccountsTest(), { excludeTestServices: true })("sign-up inside a hosted flow", (it) => {
  it.effect("a new address gets a 48-hour sa_signup; POST signup without it or with another's is 403 signup_not_bound", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const mine = yield* browser
      const before = Date.now()
      const flow = yield* proveEmail(mine, appId, "newcomer@example.com")
      expect(flow).toMatchObject({ step: "signup", signup: { email: "n***@example.com" } })
      expect(mine.lastSetCookies.find((c) => c.startsWith("sa_signup="))).toMatch(
        new RegExp(`Max-Age=${HOURS_48}.*Path=/.*HttpOnly.*SameSite=Lax`)
      )
      const expiresAt = Date.parse(flow.signup.expires_at)
      expect(expiresAt).toBeGreaterThanOrEqual(before + HOURS_48 * 1000 - 1000)
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + HOURS_48 * 1000)

      const other = yield* browser
      const otherFlow = yield* proveEmail(other, appId, "someone.else@example.com")
      expect(otherFlow.step).toBe("signup")
      const signup = `/v1/flows/${flow.id}/signup`
      const body = { display_name: "Newcomer" }

      // The flow's own cookie is not enough: the sign-up is bound to the browser that proved the address.
      const without = yield* browserWith({ sa_flow: mine.cookies.get("sa_flow") })
      const unbound = yield* run(() => without.post(signup, body))
      expect(unbound.status).toBe(403)
      expect(unbound.body.error.code).toBe("signup_not_bound")
      const crossed = yield* browserWith({ sa_flow: mine.cookies.get("sa_flow"), sa_signup: other.cookies.get("sa_signup") })
      const foreign = yield* run(() => crossed.post(signup, body))
      expect(foreign.status).toBe(403)
      expect(foreign.body.error.code).toBe("signup_not_bound")
      expect(yield* emailTaken("newcomer@example.com")).toBe(false)

      const done = yield* run(() => mine.post(signup, body))
      expect(done.status).toBe(200)
      expect(done.body.flow.signed_in_as).toMatchObject({ kind: "carbon", display_name: "Newcomer" })
      expect(mine.cookies.has("sa_signup")).toBe(false)
      expect(yield* emailTaken("newcomer@example.com")).toBe(true)
    }))

  it.effect("a sign-up session past its 48 hours is 410 signup_expired, and no account is made", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "latecomer@example.com")
      expect(flow.step).toBe("signup")
      // The flow's own 60 minutes end long before 48 hours (then the answer is flow_expired), so the
      // session is aged in the database to reach this check inside a live flow.
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE signup_sessions SET expires_at = now() - interval '1 second' WHERE flow_id = ${flow.id}
      `.pipe(Effect.orDie)
      const expired = yield* run(() => b.post(`/v1/flows/${flow.id}/signup`, { display_name: "Latecomer" }))
      expect(expired.status).toBe(410)
      expect(expired.body.error.code).toBe("signup_expired")
      expect(b.cookies.has("sa_session")).toBe(false)
      expect((yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow.step).toBe("signup")
      expect(yield* emailTaken("latecomer@example.com")).toBe(false)
    }))
})
