import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import type { Browser } from "./support/browser.ts"
import { FakeIdpServer, type NextAnswer } from "./support/fakeIdp.ts"
import {
  accountOfCode,
  browser,
  makeFlowApp,
  makeFlowAppWithSecret,
  patchSigninConfig,
  proveEmail,
  redeemCode,
  REDIRECT,
  run,
  setSigninConfig,
  startFlow
} from "./support/flows.ts"
import { claimAfterCallback, refusedAfter } from "./support/providerFlows.ts"

/** The accounts server with idp_a managed by the fake provider. */
const Tested = Layer.unwrapEffect(
  Effect.map(FakeIdpServer, (idp) =>
    AccountsTest({
      idpA: { issuer: idp.issuer, client: Option.some({ clientId: idp.clientId, clientSecret: Redacted.make(idp.clientSecret) }) }
    }))
).pipe(Layer.provideMerge(FakeIdpServer.layer))

/** An app with idp_a enabled beside email. */
const providerApp = Effect.gen(function*() {
  const app = yield* makeFlowAppWithSecret()
  yield* setSigninConfig(app.appId, ["methods", "idp_a"], true)
  return app
})

/** Starts the flow's round trip and lets the provider answer `next`: the callback path it sends the browser to, not yet followed. */
const toCallback = (b: Browser, flowId: string, next: NextAnswer) =>
  Effect.gen(function*() {
    const idp = yield* FakeIdpServer
    idp.answer(next)
    const started = yield* run(() => b.post(`/v1/flows/${flowId}/providers/idp_a`))
    expect(started.status).toBe(200)
    const atProvider = yield* run(() => fetch(started.body.authorization_url, { redirect: "manual" }))
    const location = new URL(atProvider.headers.get("location")!)
    return { started, callback: `${location.pathname}${location.search}` }
  })

/**
 * The whole round trip as a browser makes it: start, the provider (which answers `next` at once),
 * the callback in this browser, then the GET of the flow that claims the answer.
 */
const roundTrip = (b: Browser, flowId: string, next: NextAnswer) =>
  Effect.gen(function*() {
    const { callback, started } = yield* toCallback(b, flowId, next)
    return { started, claimed: yield* claimAfterCallback(b, flowId, callback) }
  })

const person = (sub: string, email: string, extra: Record<string, unknown> = {}): NextAnswer => ({
  claims: { sub, email, email_verified: true, name: "Ada Provider", picture: "https://idp.example/ada.png", ...extra }
})

/** The flow's error after a round trip answering `next`, the flow staying at choose_method. */
const refusedWith = (next: NextAnswer) => refusedAfter(providerApp, (b, flowId) => roundTrip(b, flowId, next))

layer(Tested, { excludeTestServices: true })("hosted flow with an identity provider (idp_a)", (it) => {
  it.effect("a new identity signs up with the provider's details, the app redeems its code, and the identity signs in again", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpServer
      const { appId, secret } = yield* providerApp
      const b = yield* browser
      const created = yield* startFlow(b, appId)
      expect(created.body.flow.methods).toEqual(["idp_a", "email"])
      const flowId: string = created.body.flow.id
      const { claimed, started } = yield* roundTrip(b, flowId, person("sub-ada", "Ada@Example.com"))

      const sent = new URL(started.body.authorization_url)
      expect(`${sent.origin}${sent.pathname}`).toBe(`${idp.issuer}/authorize`)
      const query = idp.authorizations.at(-1)!
      expect(Object.fromEntries(query)).toMatchObject({
        client_id: idp.clientId,
        redirect_uri: `${b.origin}/v1/providers/idp_a/callback`,
        response_type: "code",
        scope: "openid email profile",
        code_challenge_method: "S256",
        prompt: "select_account"
      })
      expect(query.get("state")!.length).toBeGreaterThanOrEqual(22)
      expect(query.get("nonce")!.length).toBeGreaterThanOrEqual(22)
      expect(query.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(query.has("hd")).toBe(false)
      expect(started.body.flow.step).toBe("choose_method")

      expect(claimed).toMatchObject({
        step: "signup",
        error: null,
        signup: {
          email: "a***@example.com",
          provider: "idp_a",
          provider_pfp_url: "https://idp.example/ada.png",
          display_name: "Ada Provider"
        }
      })
      expect(b.cookies.has("sa_signup")).toBe(true)
      // The answer is claimed once: a second GET shows the same flow.
      expect((yield* run(() => b.get(`/v1/flows/${flowId}`))).body.flow.step).toBe("signup")

      const done = yield* run(() => b.post(`/v1/flows/${flowId}/signup`, { display_name: "Ada Provider" }))
      expect(done.status).toBe(200)
      expect(done.body.flow.step).toBe("complete")
      expect(b.cookies.has("sa_session")).toBe(true)
      const redirectTo = new URL(done.body.flow.redirect_to)
      expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(REDIRECT)
      const uuid = yield* accountOfCode(done.body.flow.redirect_to)

      const tokens = yield* redeemCode(b.origin, appId, secret, done.body.flow.redirect_to)
      expect(tokens.status).toBe(200)
      expect(tokens.body.id_token).toEqual(expect.any(String))
      expect(tokens.body.account).toMatchObject({ uuid, display_name: "Ada Provider" })

      // Later, in a browser with no session: the linked identity signs the same account in, no sign-up.
      const later = yield* browser
      const again: string = (yield* startFlow(later, appId)).body.flow.id
      const signedIn = (yield* roundTrip(later, again, person("sub-ada", "ada@example.com"))).claimed
      expect(signedIn.step).toBe("complete")
      expect(signedIn.signed_in_as).toMatchObject({ uuid, display_name: "Ada Provider" })
      expect(later.cookies.has("sa_session")).toBe(true)
      expect(later.cookies.has("sa_signup")).toBe(false)
      expect(yield* accountOfCode(signedIn.redirect_to)).toBe(uuid)
    }))

  it.effect("an app in byo mode signs in with its own client id and its sealed client secret", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpServer
      const { appId, secret } = yield* makeFlowAppWithSecret()
      const b = yield* browser
      const patched = yield* patchSigninConfig(b.origin, appId, secret, {
        methods: { idp_a: true },
        idp_a: { mode: "byo", client_id: idp.byoClient.clientId, client_secret: idp.byoClient.clientSecret, prompt: "consent" }
      })
      expect(patched.status).toBe(200)
      expect(JSON.stringify(patched.body)).not.toContain(idp.byoClient.clientSecret)
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { claimed } = yield* roundTrip(b, flowId, person("sub-byo", "byo@example.com"))
      expect(idp.authorizations.at(-1)!.get("client_id")).toBe(idp.byoClient.clientId)
      expect(idp.authorizations.at(-1)!.get("prompt")).toBe("consent")
      expect(claimed).toMatchObject({ step: "signup", signup: { provider: "idp_a", email: "b***@example.com" } })
    }))

  it.effect("cancelled at the provider: flow.error provider_cancelled, still at choose_method", () =>
    Effect.map(refusedWith({ ...person("sub-c", "c@example.com"), cancel: true }), (code) => expect(code).toBe("provider_cancelled")))

  it.effect("an ID token with another nonce, another audience or a signature not by the provider's keys is provider_token_invalid", () =>
    Effect.gen(function*() {
      expect(yield* refusedWith({ ...person("sub-f", "f@example.com"), forged: true })).toBe("provider_token_invalid")
      expect(yield* refusedWith({ ...person("sub-n", "n@example.com"), nonce: "not-the-nonce" })).toBe("provider_token_invalid")
      expect(yield* refusedWith({ ...person("sub-a", "a@example.com"), audience: "someone-else" })).toBe("provider_token_invalid")
    }))

  it.effect("a token endpoint that refuses the code is provider_error; one that is down is provider_unavailable", () =>
    Effect.gen(function*() {
      expect(yield* refusedWith({ ...person("sub-r", "r@example.com"), token: "invalid_grant" })).toBe("provider_error")
      expect(yield* refusedWith({ ...person("sub-d", "d@example.com"), token: "down" })).toBe("provider_unavailable")
    }))

  it.effect("an app that changes its idp_a client during the round trip gets provider_config_changed", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpServer
      const { appId } = yield* providerApp
      const b = yield* browser
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { callback } = yield* toCallback(b, flowId, person("sub-x", "x@example.com"))
      yield* setSigninConfig(appId, ["idp_a", "mode"], "byo")
      yield* setSigninConfig(appId, ["idp_a", "client_id"], idp.byoClient.clientId)
      expect((yield* run(() => b.get(callback))).status).toBe(302)
      const flow = (yield* run(() => b.get(`/v1/flows/${flowId}`))).body.flow
      expect(flow).toMatchObject({ step: "choose_method", error: { code: "provider_config_changed" } })
    }))

  it.effect("an email the provider has not verified is email_not_verified", () =>
    Effect.map(
      refusedWith(person("sub-u", "u@example.com", { email_verified: false })),
      (code) => expect(code).toBe("email_not_verified")
    ))

  it.effect("an app's hosted_domain goes to the provider as hd, and another workspace is hosted_domain_mismatch", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpServer
      const { appId } = yield* providerApp
      yield* setSigninConfig(appId, ["idp_a", "hosted_domain"], "corp.example")
      const b = yield* browser
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { claimed } = yield* roundTrip(b, flowId, person("sub-h", "h@other.example", { hd: "other.example" }))
      expect(idp.authorizations.at(-1)!.get("hd")).toBe("corp.example")
      expect(claimed).toMatchObject({ step: "choose_method", error: { code: "hosted_domain_mismatch" } })
      expect(b.cookies.has("sa_signup")).toBe(false)
    }))

  it.effect("an identity whose email an account already holds is email_in_use, and nothing is linked or made", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const owner = yield* browser
      const flow = yield* proveEmail(owner, appId, "taken@example.com")
      expect((yield* run(() => owner.post(`/v1/flows/${flow.id}/signup`, { display_name: "Owner" }))).status).toBe(200)
      expect(yield* refusedWith(person("sub-t", "taken@example.com"))).toBe("email_in_use")
    }))

  it.effect("an unknown state at the callback is an error page, never a redirect", () =>
    Effect.gen(function*() {
      const b = yield* browser
      const page = yield* run(() => b.get("/v1/providers/idp_a/callback?state=forged&code=abc"))
      expect(page.status).toBe(400)
      expect(page.headers.get("content-type")).toMatch(/^text\/html/)
      expect(page.headers.get("location")).toBeNull()
      expect(page.body).toContain("invalid_state")
      const noState = yield* run(() => b.get("/v1/providers/idp_a/callback?code=abc"))
      expect(noState.status).toBe(400)
      expect(noState.headers.get("location")).toBeNull()
    }))

  it.effect("an answer in a browser that does not hold the flow is refused there and recorded as provider_answer_elsewhere", () =>
    Effect.gen(function*() {
      const { appId } = yield* providerApp
      const mine = yield* browser
      const flowId: string = (yield* startFlow(mine, appId)).body.flow.id
      const { callback } = yield* toCallback(mine, flowId, person("sub-e", "e@example.com"))
      const other = yield* browser
      const elsewhere = yield* run(() => other.get(callback))
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.headers.get("location")).toBeNull()
      expect(elsewhere.body).toContain("provider_answer_elsewhere")
      // The same answer cannot be replayed in the right browser either.
      const replay = yield* run(() => mine.get(callback))
      expect(replay.status).toBe(400)
      const flow = (yield* run(() => mine.get(`/v1/flows/${flowId}`))).body.flow
      expect(flow).toMatchObject({ step: "choose_method", error: { code: "provider_answer_elsewhere" } })
      expect(mine.cookies.has("sa_session")).toBe(false)
    }))

  it.effect("a provider the app has not enabled, or that has no client here, is neither offered nor started: 403 method_not_enabled", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["methods", "idp_b"], true)
      const b = yield* browser
      const created = (yield* startFlow(b, appId)).body.flow
      expect(created.methods).toEqual(["email"])
      const flowId: string = created.id
      for (const provider of ["idp_a", "idp_b", "nope"]) {
        const refused = yield* run(() => b.post(`/v1/flows/${flowId}/providers/${provider}`))
        expect(refused.status).toBe(403)
        expect(refused.body.error.code).toBe("method_not_enabled")
      }
      const crossOrigin = yield* run(() => b.post(`/v1/flows/${flowId}/providers/idp_a`, {}, { origin: "https://evil.example" }))
      expect(crossOrigin.body.error.code).toBe("origin_not_allowed")
    }))

  it.effect("GET /v1/meta says the deployment configured idp_a, and /openapi.json lists both provider routes", () =>
    Effect.gen(function*() {
      const b = yield* browser
      expect((yield* run(() => b.get("/v1/meta"))).body.providers).toEqual({ idp_a: true, idp_b: false })
      const paths = Object.keys((yield* run(() => b.get("/openapi.json"))).body.paths)
      expect(paths).toContain("/v1/flows/{id}/providers/{provider}")
      expect(paths).toContain("/v1/providers/{provider}/callback")
    }))
})
