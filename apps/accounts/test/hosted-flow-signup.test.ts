import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import sharp from "sharp"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { Browser } from "./support/browser.ts"
import { browser, makeFlowApp, proveEmail, run } from "./support/flows.ts"
import { expectRateLimited, freshWindow, spendWindow } from "./support/rateLimits.ts"

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

  it.effect("a photo chosen at sign-up is checked, shown in signup.pfp_url and taken by the new account; 20 per hour per sign-up", () =>
    Effect.gen(function*() {
      yield* freshWindow(3600)
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "pictured@example.com")
      expect(flow.signup.pfp_url).toBeNull()
      const photoPath = `/v1/flows/${flow.id}/signup/photo`
      const png = yield* Effect.promise(() =>
        sharp({ create: { width: 24, height: 24, channels: 3, background: "#228844" } }).png().toBuffer())

      const uploaded = yield* run(() => b.upload(photoPath, "image/png", png))
      expect(uploaded.status).toBe(200)
      const pfpUrl: string = uploaded.body.flow.signup.pfp_url
      expect(pfpUrl).toMatch(/\/v1\/photos\/pho_[A-Za-z0-9_-]+$/)
      const served = yield* Effect.promise(() => fetch(pfpUrl))
      expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/png"])
      // Checked as any photo: bytes of one format sent as another are refused.
      const mislabelled = yield* run(() => b.upload(photoPath, "image/jpeg", png))
      expect([mislabelled.status, mislabelled.body.error.code]).toEqual([415, "unsupported_media_type"])
      // Only the browser holding the sign-up may set its photo.
      const without = yield* browserWith({ sa_flow: b.cookies.get("sa_flow") })
      const unbound = yield* run(() => without.upload(photoPath, "image/png", png))
      expect([unbound.status, unbound.body.error.code]).toEqual([403, "signup_not_bound"])

      // Every upload counts against the sign-up, refused ones included: the 21st in the hour is 429.
      const sql = yield* SqlClient.SqlClient
      const [session] = yield* sql<{ id: string }>`SELECT id FROM signup_sessions WHERE flow_id = ${flow.id}`.pipe(Effect.orDie)
      yield* spendWindow(`signup_photo_uploads:${session!.id}`, 3600, 20)
      expectRateLimited(yield* run(() => b.upload(photoPath, "image/png", png)), "20 per hour per sign-up", 3600)
      expect((yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow.signup.pfp_url).toBe(pfpUrl)

      const done = yield* run(() => b.post(`/v1/flows/${flow.id}/signup`, { display_name: "Pictured" }))
      expect(done.status).toBe(200)
      expect(done.body.flow.signed_in_as).toMatchObject({ display_name: "Pictured", pfp_url: pfpUrl })
      expect((yield* Effect.promise(() => fetch(pfpUrl))).status).toBe(200)
      // The sign-up made its account and the flow is complete: it takes no more photos.
      const after = yield* run(() => b.upload(photoPath, "image/png", png))
      expect([done.body.flow.step, after.status, after.body.error.code]).toEqual(["complete", 409, "flow_completed"])
    }))

  it.effect("a sign-up that made its account while its flow stayed at signup is 409 signup_already_completed", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "twice@example.com")
      // Stands for a sign-up whose account was made but whose flow move was lost (409 flow_changed to
      // the browser): the session is used, the flow still shows the form.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE signup_sessions SET completed_at = now() WHERE flow_id = ${flow.id}`.pipe(Effect.orDie)
      const again = yield* run(() => b.post(`/v1/flows/${flow.id}/signup`, { display_name: "Twice" }))
      expect([again.status, again.body.error.code]).toEqual([409, "signup_already_completed"])
      const png = yield* Effect.promise(() => sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer())
      const photo = yield* run(() => b.upload(`/v1/flows/${flow.id}/signup/photo`, "image/png", png))
      expect([photo.status, photo.body.error.code]).toEqual([409, "signup_already_completed"])
      expect(yield* emailTaken("twice@example.com")).toBe(false)
    }))
})
