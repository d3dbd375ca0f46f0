import type { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import type { Browser } from "./support/browser.ts"
import { FakeIdpBServer, type NextAnswer } from "./support/fakeIdp.ts"
import {
  accountOfCode,
  browser,
  makeFlowAppWithSecret,
  patchSigninConfig,
  redeemCode,
  run,
  setSigninConfig,
  startFlow
} from "./support/flows.ts"
import { claimAfterCallback, readForm, refusedAfter, submit } from "./support/providerFlows.ts"
import { fetchAnswer } from "./support/http.ts"

/** The accounts server with idp_b managed by the fake provider (the deployment's services id, team, key). */
const Tested = Layer.unwrapEffect(
  Effect.map(FakeIdpBServer, (idp) =>
    AccountsTest({
      idpB: { issuer: idp.issuer, client: Option.some({ ...idp.client, privateKey: Redacted.make(idp.client.privateKey) }) }
    }))
).pipe(Layer.provideMerge(FakeIdpBServer.layer))

/** An app with idp_b enabled beside email. */
const providerApp = Effect.gen(function*() {
  const app = yield* makeFlowAppWithSecret()
  yield* setSigninConfig(app.appId, ["methods", "idp_b"], true)
  return app
})

/** Starts the flow's round trip and lets the provider answer `next`: its form_post, not yet submitted. */
const toFormPost = (b: Browser, flowId: string, next: NextAnswer) =>
  Effect.gen(function*() {
    const idp = yield* FakeIdpBServer
    idp.answer(next)
    const started = yield* run(() => b.post(`/v1/flows/${flowId}/providers/idp_b`))
    expect(started.status).toBe(200)
    const atProvider = yield* run(() => fetchAnswer(started.body.authorization_url, { redirect: "manual" }))
    expect(atProvider.status).toBe(200)
    return { started, ...readForm(atProvider.body) }
  })

/**
 * The whole round trip as a browser makes it: start, the provider's form_post (no cookies), the
 * same-site GET it is sent on to (with this browser's cookies), then the GET of the flow that claims the answer.
 */
const roundTrip = (b: Browser, flowId: string, next: NextAnswer) =>
  Effect.gen(function*() {
    const { action, fields, started } = yield* toFormPost(b, flowId, next)
    expect(action).toBe(`${b.origin}/v1/providers/idp_b/callback`)
    const posted = yield* submit(action, fields)
    expect(posted.status).toBe(303)
    const onward = new URL(posted.headers.get("location")!)
    expect(`${onward.origin}${onward.pathname}`).toBe(action)
    // Only the state goes on in the URL: the code and the name stay on the server.
    expect([...onward.searchParams.keys()]).toEqual(["state"])
    return { started, fields, claimed: yield* claimAfterCallback(b, flowId, `${onward.pathname}${onward.search}`) }
  })

const ADA_USER = JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: "ada@example.com" })

const person = (sub: string, email: string, extra: Record<string, unknown> = {}): NextAnswer => ({
  claims: { sub, email, email_verified: "true", ...extra }
})

/** The flow's error after a round trip answering `next` in the app (an idp_b app unless given), the flow staying at choose_method. */
const refusedWith = (
  next: NextAnswer,
  app: Effect.Effect<{ readonly appId: string }, never, SqlClient.SqlClient | AccountsUnderTest> = providerApp
) => refusedAfter(app, (b, flowId) => roundTrip(b, flowId, next))

/** An idp_b app in byo mode with these ids and private key. */
const byoApp = (own: { readonly servicesId: string; readonly teamId: string; readonly keyId: string }, privateKey: string) =>
  Effect.gen(function*() {
    const app = yield* makeFlowAppWithSecret()
    const b = yield* browser
    const patched = yield* patchSigninConfig(b.origin, app.appId, app.secret, {
      methods: { idp_b: true },
      idp_b: { mode: "byo", services_id: own.servicesId, team_id: own.teamId, key_id: own.keyId, private_key: privateKey }
    })
    expect(patched.status).toBe(200)
    expect(JSON.stringify(patched.body)).not.toContain("PRIVATE KEY")
    return app
  })

layer(Tested, { excludeTestServices: true })("hosted flow with a form_post identity provider (idp_b)", (it) => {
  it.effect("a new identity signs up with the name from `user`, the app redeems its code, and the identity signs in again", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpBServer
      const { appId, secret } = yield* providerApp
      const b = yield* browser
      const created = yield* startFlow(b, appId)
      expect(created.body.flow.methods).toEqual(["idp_b", "email"])
      const flowId: string = created.body.flow.id
      const { claimed, fields } = yield* roundTrip(b, flowId, { ...person("sub-ada", "Ada@Example.com"), user: ADA_USER })

      expect(Object.fromEntries(idp.authorizations.at(-1)!)).toMatchObject({
        client_id: idp.client.servicesId,
        redirect_uri: `${b.origin}/v1/providers/idp_b/callback`,
        response_type: "code",
        response_mode: "form_post",
        scope: "name email",
        code_challenge_method: "S256"
      })
      expect(fields.has("code")).toBe(true)
      expect(claimed).toMatchObject({
        step: "signup",
        error: null,
        signup: { email: "a***@example.com", provider: "idp_b", provider_pfp_url: null, display_name: "Ada Lovelace" }
      })

      const done = yield* run(() => b.post(`/v1/flows/${flowId}/signup`, { display_name: "Ada Lovelace" }))
      expect(done.status).toBe(200)
      expect(done.body.flow.step).toBe("complete")
      const uuid = yield* accountOfCode(done.body.flow.redirect_to)
      const tokens = yield* redeemCode(b.origin, appId, secret, done.body.flow.redirect_to)
      expect(tokens.status).toBe(200)
      expect(tokens.body.account).toMatchObject({ uuid, display_name: "Ada Lovelace" })

      // Later, in a browser with no session: no `user` this time (the provider sends it once), the linked identity signs in.
      const later = yield* browser
      const again: string = (yield* startFlow(later, appId)).body.flow.id
      const signedIn = (yield* roundTrip(later, again, person("sub-ada", "ada@example.com"))).claimed
      expect(signedIn.step).toBe("complete")
      expect(signedIn.signed_in_as).toMatchObject({ uuid, display_name: "Ada Lovelace" })
      expect(yield* accountOfCode(signedIn.redirect_to)).toBe(uuid)
    }))

  it.effect("an app in byo mode signs its client secrets with its own services id, team, key id and private key", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpBServer
      const { appId } = yield* byoApp(idp.byoClient, idp.byoClient.privateKey)
      const b = yield* browser
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { claimed } = yield* roundTrip(b, flowId, person("sub-byo", "byo@example.com"))
      expect(idp.authorizations.at(-1)!.get("client_id")).toBe(idp.byoClient.servicesId)
      expect(claimed).toMatchObject({ step: "signup", signup: { provider: "idp_b", email: "b***@example.com", display_name: null } })
    }))

  it.effect("a client secret signed with a key the provider does not know is refused by it: provider_error", () =>
    Effect.gen(function*() {
      const idp = yield* FakeIdpBServer
      expect(yield* refusedWith(person("sub-k", "k@example.com"), byoApp(idp.byoClient, idp.strangerKey))).toBe("provider_error")
    }))

  it.effect("email_verified \"false\" is email_not_verified; cancelling at the provider is provider_cancelled", () =>
    Effect.gen(function*() {
      expect(yield* refusedWith(person("sub-u", "u@example.com", { email_verified: "false" }))).toBe("email_not_verified")
      expect(yield* refusedWith({ ...person("sub-c", "c@example.com"), cancel: true })).toBe("provider_cancelled")
    }))

  it.effect("a private relay email is the identity's verified email; an app that allows only its own domains refuses it", () =>
    Effect.gen(function*() {
      const relay = person("sub-relay", "x7k2@privaterelay.appleid.com", { is_private_email: "true" })
      const { appId } = yield* providerApp
      const b = yield* browser
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { claimed } = yield* roundTrip(b, flowId, relay)
      expect(claimed).toMatchObject({ step: "signup", signup: { email: "x***@privaterelay.appleid.com" } })
      const corporate = Effect.tap(providerApp, ({ appId }) => setSigninConfig(appId, ["allowed_email_domains"], ["corp.example"]))
      expect(yield* refusedWith({ ...relay, claims: { ...relay.claims, sub: "sub-relay-2" } }, corporate)).toBe(
        "email_domain_not_allowed"
      )
    }))

  it.effect("an unknown state on the POST callback is an error page, never a redirect; an answer is held once", () =>
    Effect.gen(function*() {
      const b = yield* browser
      const forged = yield* submit(`${b.origin}/v1/providers/idp_b/callback`, new URLSearchParams({ state: "forged", code: "abc" }))
      expect(forged.status).toBe(400)
      expect(forged.headers.get("content-type")).toMatch(/^text\/html/)
      expect(forged.headers.get("location")).toBeNull()
      expect(forged.body).toContain("invalid_state")
      const noState = yield* submit(`${b.origin}/v1/providers/idp_b/callback`, new URLSearchParams({ code: "abc" }))
      expect(noState.status).toBe(400)
      expect(noState.headers.get("location")).toBeNull()

      const { appId } = yield* providerApp
      const flowId: string = (yield* startFlow(b, appId)).body.flow.id
      const { action, fields } = yield* toFormPost(b, flowId, person("sub-o", "o@example.com"))
      // The GET with the state alone, before the provider's POST, has no answer to take.
      const early = yield* run(() => b.get(`/v1/providers/idp_b/callback?state=${encodeURIComponent(fields.get("state")!)}`))
      expect(early.status).toBe(400)
      expect((yield* submit(action, fields)).status).toBe(303)
      const again = yield* submit(action, fields)
      expect(again.status).toBe(400)
      expect(again.headers.get("location")).toBeNull()
      // idp_a answers by redirect: a POST to its callback is not taken.
      const wrongProvider = yield* submit(`${b.origin}/v1/providers/idp_a/callback`, fields)
      expect(wrongProvider.status).toBe(400)
    }))

  it.effect("an answer posted from another browser is bound at the same-site GET: refused there, provider_answer_elsewhere", () =>
    Effect.gen(function*() {
      const { appId } = yield* providerApp
      // Someone starts a flow and gets another person's browser to sign in at the provider with its state.
      const starter = yield* browser
      const flowId: string = (yield* startFlow(starter, appId)).body.flow.id
      const { action, fields } = yield* toFormPost(starter, flowId, person("sub-v", "victim@example.com"))
      const victim = yield* browser
      const posted = yield* submit(action, fields)
      expect(posted.status).toBe(303)
      const onward = new URL(posted.headers.get("location")!)
      const there = yield* run(() => victim.get(`${onward.pathname}${onward.search}`))
      expect(there.status).toBe(400)
      expect(there.headers.get("location")).toBeNull()
      expect(there.body).toContain("provider_answer_elsewhere")
      // The starter's browser cannot take the answer over either: it is used, and recorded as elsewhere.
      expect((yield* run(() => starter.get(`${onward.pathname}${onward.search}`))).status).toBe(400)
      const flow = (yield* run(() => starter.get(`/v1/flows/${flowId}`))).body.flow
      expect(flow).toMatchObject({ step: "choose_method", error: { code: "provider_answer_elsewhere" } })
      expect(starter.cookies.has("sa_session")).toBe(false)
      expect(starter.cookies.has("sa_signup")).toBe(false)
    }))

  it.effect("GET /v1/meta says the deployment configured idp_b, and /openapi.json shows the POST callback", () =>
    Effect.gen(function*() {
      const b = yield* browser
      expect((yield* run(() => b.get("/v1/meta"))).body.providers).toEqual({ idp_a: false, idp_b: true })
      const callback = (yield* run(() => b.get("/openapi.json"))).body.paths["/v1/providers/{provider}/callback"]
      expect(Object.keys(callback).sort()).toEqual(["get", "post"])
      expect(Object.keys(callback.post.requestBody.content)).toEqual(["application/x-www-form-urlencoded"])
    }))
})
