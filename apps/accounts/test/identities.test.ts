import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { BrowserSessions } from "../src/flows/BrowserSessions.ts"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { callWithBearer } from "./support/bearer.ts"
import type { Browser } from "./support/browser.ts"
import { createCarbon } from "./support/carbons.ts"
import { FakeIdpBServer, FakeIdpServer, type NextAnswer } from "./support/fakeIdp.ts"
import { fetchAnswer } from "./support/http.ts"
import { readForm, submit } from "./support/providerFlows.ts"
import { browser, run, setSigninConfig } from "./support/flows.ts"
import { expectRateLimited, spendWindow } from "./support/rateLimits.ts"
import { signInDirectly } from "./support/signIn.ts"

/** The accounts server with idp_a and idp_b managed by the fake providers. */
const Tested = Layer.unwrapEffect(
  Effect.gen(function*() {
    const idp = yield* FakeIdpServer
    const idpB = yield* FakeIdpBServer
    return AccountsTest({
      idpA: { issuer: idp.issuer, client: Option.some({ clientId: idp.clientId, clientSecret: Redacted.make(idp.clientSecret) }) },
      idpB: { issuer: idpB.issuer, client: Option.some({ ...idpB.client, privateKey: Redacted.make(idpB.client.privateKey) }) }
    })
  })
).pipe(Layer.provideMerge(Layer.merge(FakeIdpServer.layer, FakeIdpBServer.layer)))

/** A new Carbon and a browser signed in to the account site as it (the sa_session cookie). */
const signedInBrowser = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const cookie = yield* Effect.flatMap(BrowserSessions, (sessions) => sessions.start(carbon.uuid, new Date())).pipe(
    Effect.provide(BrowserSessions.Default)
  )
  const b = yield* browser
  b.cookies.set("sa_session", cookie)
  return { carbon, b }
})

const person = (sub: string, email: string): NextAnswer => ({ claims: { sub, email, email_verified: true, name: "Ada" } })

/** Starts a link in `b`, lets the provider answer `next`, and follows the callback in `callbackIn` (default `b`). */
const linkRoundTrip = (b: Browser, next: NextAnswer, callbackIn: Browser = b) =>
  Effect.gen(function*() {
    const idp = yield* FakeIdpServer
    idp.answer(next)
    const started = yield* run(() => b.post("/v1/me/identities/idp_a"))
    expect(started.status).toBe(201)
    const atProvider = yield* run(() => fetch(started.body.authorization_url, { redirect: "manual" }))
    const location = new URL(atProvider.headers.get("location")!)
    const page = yield* run(() => callbackIn.get(`${location.pathname}${location.search}`))
    const status = yield* run(() => b.get(`/v1/me/identities/links/${started.body.link_id}`))
    expect(status.status).toBe(200)
    return { started, page, link: status.body }
  })

layer(Tested, { excludeTestServices: true })("/v1/me/identities: list, link, unlink", (it) => {
  it.effect("a link in the account site's session: the identity and its verified email join the account; unlinking removes it", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpServer
      const { b, carbon } = yield* signedInBrowser
      expect((yield* run(() => b.get("/v1/me/identities"))).body).toEqual({ items: [], next_cursor: null })
      const { link, page, started } = yield* linkRoundTrip(b, person("sub-link-1", "Ada.Linked@Example.com"))
      expect(started.body).toEqual({
        link_id: expect.stringMatching(/^lnk_/),
        provider: "idp_a",
        authorization_url: expect.stringContaining(`${idp.issuer}/authorize?`),
        expires_at: expect.any(String)
      })
      expect(new URL(started.body.authorization_url).searchParams.get("redirect_uri")).toBe(`${b.origin}/v1/providers/idp_a/callback`)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toMatch(/^text\/html/)
      expect(page.body).toContain("Identity linked")
      const identity = {
        id: expect.stringMatching(/^idn_/),
        provider: "idp_a",
        email: "ada.linked@example.com",
        linked_at: expect.any(String),
        last_used_at: expect.any(String)
      }
      expect(link).toMatchObject({ status: "linked", error: null, identity })
      const listed = yield* run(() => b.get("/v1/me/identities"))
      expect(listed.body).toEqual({ items: [identity], next_cursor: null })
      const emails = yield* run(() => b.get("/v1/me/emails"))
      expect(emails.body.items.map((item: { address: string; verified: boolean }) => [item.address, item.verified])).toContainEqual([
        "ada.linked@example.com",
        true
      ])
      // Linking it again is no change; the link reports the same identity.
      const again = yield* linkRoundTrip(b, person("sub-link-1", "ada.linked@example.com"))
      expect(again.link.identity.id).toBe(listed.body.items[0].id)

      // A bearer token reads and unlinks as well; the second unlink finds nothing.
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const id = listed.body.items[0].id
      expect((yield* callWithBearer("DELETE", `/v1/me/identities/${id}`, accessToken)).status).toBe(204)
      const gone = yield* callWithBearer("DELETE", `/v1/me/identities/${id}`, accessToken)
      expect([gone.status, gone.body.error.code]).toEqual([404, "identity_not_found"])
      expect((yield* callWithBearer("GET", "/v1/me/identities", accessToken)).body.items).toEqual([])
    }))

  it.effect("the list pages with limit and cursor", () =>
    Effect.gen(function*() {
      const { b } = yield* signedInBrowser
      for (const sub of ["page-1", "page-2", "page-3"]) yield* linkRoundTrip(b, person(sub, `${sub}@example.com`))
      const first = yield* run(() => b.get("/v1/me/identities?limit=2"))
      expect(first.body.items.map((item: { email: string }) => item.email)).toEqual(["page-1@example.com", "page-2@example.com"])
      const second = yield* run(() => b.get(`/v1/me/identities?limit=2&cursor=${first.body.next_cursor}`))
      expect(second.body).toMatchObject({ items: [{ email: "page-3@example.com" }], next_cursor: null })
      expect((yield* run(() => b.get("/v1/me/identities?cursor=nonsense"))).body.error.code).toBe("invalid_cursor")
    }))

  it.effect("refusals carry spec 1's provider error values and link nothing", () =>
    Effect.gen(function*() {
      const { b: other } = yield* signedInBrowser
      yield* linkRoundTrip(other, person("sub-taken", "taken@example.com"))
      const { b } = yield* signedInBrowser
      const failures: Array<string> = []
      for (
        const next of [
          person("sub-taken", "someone@example.com"),
          person("sub-new", "taken@example.com"),
          { cancel: true, claims: {} },
          { claims: { sub: "sub-unverified", email: "u@example.com", email_verified: false } },
          { claims: { sub: "sub-no-email" } }
        ] satisfies Array<NextAnswer>
      ) {
        const { link, page } = yield* linkRoundTrip(b, next)
        expect(page.status).toBe(400)
        expect(link.status).toBe("failed")
        expect(link.identity).toBeNull()
        expect(page.body).toContain(link.error.code)
        failures.push(link.error.code)
      }
      expect(failures).toEqual(["identity_in_use", "email_in_use", "provider_cancelled", "email_not_verified", "provider_email_invalid"])
      // The answer in a browser without the session that started the link: session_changed, nothing exchanged.
      const stranger = yield* browser
      const elsewhere = yield* linkRoundTrip(b, person("sub-elsewhere", "elsewhere@example.com"), stranger)
      expect(elsewhere.link.error.code).toBe("session_changed")
      expect((yield* run(() => b.get("/v1/me/identities"))).body.items).toEqual([])
    }))

  it.effect("an account with 10 emails cannot take the identity's 11th: email_limit_reached", () =>
    Effect.gen(function*() {
      const { b, carbon } = yield* signedInBrowser
      const contacts = yield* Effect.provide(ContactsRepo, ContactsRepo.Default)
      for (let index = 0; index < 9; index++) {
        yield* Effect.orDie(contacts.addContact({ accountUuid: carbon.uuid, channel: "email", address: `full${index}@example.org`, verified: true }))
      }
      const { link } = yield* linkRoundTrip(b, person("sub-full", "eleventh@example.com"))
      expect(link.error.code).toBe("email_limit_reached")
    }))

  it.effect("idp_b answers by form_post: the answer is held, then judged at the same-site GET in the session", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpBServer
      const { b } = yield* signedInBrowser
      idp.answer({ claims: { sub: "b-sub-1", email: "b.person@example.com", email_verified: "true" } })
      const started = yield* run(() => b.post("/v1/me/identities/idp_b"))
      expect(started.status).toBe(201)
      const atProvider = yield* run(() => fetchAnswer(started.body.authorization_url, { redirect: "manual" }))
      const { action, fields } = readForm(atProvider.body)
      const posted = yield* submit(action, fields)
      expect(posted.status).toBe(303)
      const location = new URL(posted.headers.get("location")!)
      const page = yield* run(() => b.get(`${location.pathname}${location.search}`))
      expect(page.status).toBe(200)
      const listed = yield* run(() => b.get("/v1/me/identities"))
      expect(listed.body.items).toMatchObject([{ provider: "idp_b", email: "b.person@example.com" }])
    }))

  it.effect("starting a link: only in the browser session, a known provider, a strict body, 30 per hour", () =>
    Effect.gen(function*() {
      const { b, carbon } = yield* signedInBrowser
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const bearer = yield* callWithBearer("POST", "/v1/me/identities/idp_a", accessToken, {})
      expect([bearer.status, bearer.body.error.code]).toEqual([401, "session_required"])
      // The account site's own app (accounts) chooses the client: in byo mode without its own, there is none.
      yield* setSigninConfig("accounts", ["idp_a", "mode"], "byo")
      const noClient = yield* run(() => b.post("/v1/me/identities/idp_a"))
      yield* setSigninConfig("accounts", ["idp_a", "mode"], "managed")
      expect([noClient.status, noClient.body.error.code]).toEqual([403, "method_not_enabled"])
      const unknown = yield* run(() => b.post("/v1/me/identities/idp_z"))
      expect([unknown.status, unknown.body.error.code]).toEqual([400, "invalid_path"])
      const extra = yield* run(() => b.post("/v1/me/identities/idp_a", { return_to: "https://evil.example" }))
      expect([extra.status, Object.keys(extra.body.error.details.fields)]).toEqual([422, ["return_to"]])
      const noOrigin = yield* run(() => b.post("/v1/me/identities/idp_a", {}, { origin: "https://evil.example" }))
      expect([noOrigin.status, noOrigin.body.error.code]).toEqual([403, "origin_not_allowed"])
      const missing = yield* run(() => b.get("/v1/me/identities/links/lnk_nothing"))
      expect([missing.status, missing.body.error.code]).toEqual([404, "identity_link_not_found"])
      // 30 per hour per account, counted where the link starts.
      expect((yield* run(() => b.post("/v1/me/identities/idp_a"))).status).toBe(201)
      yield* spendWindow(`identity_links:${carbon.uuid}`, 3600, 30)
      expectRateLimited(yield* run(() => b.post("/v1/me/identities/idp_a")), "30 per hour per account", 3600)
    }))
})
