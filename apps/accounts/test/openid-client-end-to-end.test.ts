import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as client from "openid-client"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../src/apps/AppsRepo.ts"
import { createFakeApp } from "../src/apps/FakeApps.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { Browser } from "./support/browser.ts"
import { fetchAnswer } from "./support/http.ts"
import { lastMessageTo } from "@platform/testkit"

const REDIRECT = "https://rp.example.test/callback"
const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** A fake app asking for the email (required) and the dob (optional), with terms to accept on a review page. */
const relyingPartyApp = Effect.gen(function*() {
  const { url } = yield* AccountsUnderTest
  const appId = `rp-${Date.now().toString(36)}`
  const { secret } = yield* createFakeApp({
    appId,
    name: "Relying Party",
    redirectUris: [REDIRECT],
    owner: Option.none(),
    scopeFields: ["email"]
  }).pipe(Effect.orDie, Effect.provide([AccountsRepo.Default, AppsRepo.Default]))
  const patched = yield* promise(() =>
    fetchAnswer(`${url}/v1/apps/${appId}/signin-config`, {
      method: "PATCH",
      headers: {
        authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`,
        "content-type": "application/json"
      },
      body: JSON.stringify({ optional_fields: ["dob"], copy: { terms_url: "https://rp.example.test/terms" } })
    })
  )
  expect(patched.status).toBe(200)
  return { appId, secret }
})

/** What a script can do with the flow API: start the flow from the authorize URL's query. */
const startFlow = (browser: Browser, authorizationUrl: URL) =>
  Effect.gen(function*() {
    const created = yield* promise(() => browser.post("/v1/flows", Object.fromEntries(authorizationUrl.searchParams)))
    expect(created.status).toBe(201)
    return created.body.flow
  })

layer(AccountsTest(), { excludeTestServices: true })("a standard OpenID client, end to end", (it) => {
  it.effect("discovery, PKCE, the hosted flow with sign-up, code exchange, userinfo, refresh, introspection, revocation", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const app = yield* relyingPartyApp
      const config = yield* promise(() =>
        client.discovery(new URL(url), app.appId, undefined, client.ClientSecretBasic(app.secret), {
          execute: [client.allowInsecureRequests]
        })
      )
      const verifier = client.randomPKCECodeVerifier()
      const state = client.randomState()
      const nonce = client.randomNonce()
      const authorizationUrl = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid profile email dob",
        code_challenge: yield* promise(() => client.calculatePKCECodeChallenge(verifier)),
        code_challenge_method: "S256",
        state,
        nonce
      })
      expect(authorizationUrl.origin).toBe(url)

      // The person signs up inside the flow with an email code, shares the details and accepts.
      const browser = new Browser(url)
      const flow = yield* startFlow(browser, authorizationUrl)
      const at = (path: string) => `/v1/flows/${flow.id}${path}`
      const email = `grace-${Date.now().toString(36)}@example.com`
      yield* promise(() => browser.post(at("/code"), { channel: "email", destination: email }))
      const code = (yield* lastMessageTo(email)).code!
      expect((yield* promise(() => browser.post(at("/code/verify"), { code }))).body.flow.step).toBe("signup")
      const signedUp = yield* promise(() => browser.post(at("/signup"), { display_name: "Grace", dob: "1985-12-09" }))
      expect(signedUp.body.flow.details).toMatchObject({ id: "required", fields: [{ field: "email", mode: "required" }] })
      const optional = yield* promise(() => browser.post(at("/details/continue"), { shared: [] }))
      expect(optional.body.flow.details).toMatchObject({ id: "optional", fields: [{ field: "dob", mode: "optional" }] })
      const review = yield* promise(() => browser.post(at("/details/continue"), { shared: ["dob"] }))
      expect(review.body.flow.step).toBe("review")
      const done = yield* promise(() => browser.post(at("/review")))
      expect(done.body.flow.step).toBe("complete")

      // The app's callback: openid-client checks state and iss, exchanges with the verifier, validates the id_token.
      const tokens = yield* promise(() =>
        client.authorizationCodeGrant(config, new URL(done.body.flow.redirect_to), {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true
        })
      )
      const claims = tokens.claims()!
      expect(claims).toMatchObject({ iss: url, aud: app.appId, nonce })
      expect(tokens["account"]).toMatchObject({ display_name: "Grace", email, email_verified: true, dob: "1985-12-09" })
      expect(tokens["membership_id"]).toBe(`${app.appId}:${claims.sub}`)

      const userinfo = yield* promise(() => client.fetchUserInfo(config, tokens.access_token, claims.sub))
      expect(userinfo).toMatchObject({ sub: claims.sub, name: "Grace", email, email_verified: true, birthdate: "1985-12-09" })

      const refreshed = yield* promise(() => client.refreshTokenGrant(config, tokens.refresh_token!))
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
      const introspected = yield* promise(() => client.tokenIntrospection(config, refreshed.access_token))
      expect(introspected).toMatchObject({ active: true, sub: claims.sub, client_id: app.appId })

      yield* promise(() => client.tokenRevocation(config, refreshed.refresh_token!))
      expect((yield* promise(() => client.tokenIntrospection(config, refreshed.access_token))).active).toBe(false)

      // A second sign-in to the same app: the browser's session continues and no page is shown.
      const again = yield* startFlow(
        browser,
        client.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: "openid profile email",
          code_challenge: yield* promise(() => client.calculatePKCECodeChallenge(verifier)),
          code_challenge_method: "S256",
          state,
          nonce
        })
      )
      expect(again.signed_in_as).toMatchObject({ display_name: "Grace" })
      const continued = yield* promise(() => browser.post(`/v1/flows/${again.id}/continue`))
      expect(continued.body.flow.step).toBe("complete")
      const second = yield* promise(() =>
        client.authorizationCodeGrant(config, new URL(continued.body.flow.redirect_to), {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true
        })
      )
      expect(second.claims()!.sub).toBe(claims.sub)
    }))
})
