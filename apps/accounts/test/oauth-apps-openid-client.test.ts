import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as jose from "jose"
import * as client from "openid-client"
import { atHash } from "../src/oauth/IdTokens.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp, mintCode, REDIRECT_URI } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** openid-client, unmodified, as the relying party of an app. */
const relyingParty = (appId: string, authentication: client.ClientAuth) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    promise(() =>
      client.discovery(new URL(url), appId, undefined, authentication, { execute: [client.allowInsecureRequests] })
    ))

layer(AccountsTest(), { excludeTestServices: true })("OAuth for apps with openid-client as the relying party", (it) => {
  it.effect("code with PKCE S256, state and nonce; id_token validated; userinfo, refresh, introspection, revocation", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon({ displayName: "Ada Relying" })
      const app = yield* createApp()
      const config = yield* relyingParty(app.appId, client.ClientSecretBasic(app.secret))
      const verifier = client.randomPKCECodeVerifier()
      const challenge = yield* promise(() => client.calculatePKCECodeChallenge(verifier))
      const state = client.randomState()
      const nonce = client.randomNonce()
      const code = yield* mintCode({
        appId: app.appId,
        accountUuid: carbon.uuid,
        codeChallenge: challenge,
        codeChallengeMethod: "S256",
        scope: "openid profile email",
        nonce
      })
      // The redirect the hosted flow would send back, with RFC 9207's iss.
      const callback = new URL(REDIRECT_URI)
      callback.search = new URLSearchParams({ code, state, iss: url }).toString()
      const tokens = yield* promise(() =>
        client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true
        })
      )
      const claims = tokens.claims()!
      expect(claims).toMatchObject({ iss: url, sub: carbon.uuid, aud: app.appId, azp: app.appId, nonce })
      expect(typeof claims.auth_time).toBe("number")
      expect(claims["at_hash"]).toBe(atHash(tokens.access_token))
      expect(jose.decodeProtectedHeader(tokens.id_token!).alg).toBe("EdDSA")
      expect(tokens.token_type).toBe("bearer")
      expect(tokens.expires_in).toBe(1800)
      expect(tokens["membership_id"]).toBe(`${app.appId}:${carbon.uuid}`)
      expect(tokens["account"]).toMatchObject({
        uuid: carbon.uuid,
        membership_id: `${app.appId}:${carbon.uuid}`,
        kind: "carbon",
        id: `c:${carbon.handle}`,
        display_name: "Ada Relying",
        email: `${carbon.handle}@example.com`,
        email_verified: true
      })
      expect(tokens["account"]).not.toHaveProperty("dob")
      const access = jose.decodeJwt(tokens.access_token)
      expect(access).toMatchObject({ aud: app.appId, client_id: app.appId, scope: "openid profile email" })
      expect(jose.decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt")

      const userinfo = yield* promise(() => client.fetchUserInfo(config, tokens.access_token, carbon.uuid))
      expect(userinfo).toMatchObject({
        sub: carbon.uuid,
        name: "Ada Relying",
        email: `${carbon.handle}@example.com`,
        email_verified: true,
        uuid: carbon.uuid,
        membership_id: `${app.appId}:${carbon.uuid}`,
        kind: "carbon",
        id: `c:${carbon.handle}`,
        display_name: "Ada Relying",
        version: 1
      })
      expect(typeof userinfo.updated_at).toBe("number")
      expect(userinfo).not.toHaveProperty("birthdate")

      const refreshed = yield* promise(() => client.refreshTokenGrant(config, tokens.refresh_token!))
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
      expect(refreshed.claims()).toMatchObject({ sub: carbon.uuid, aud: app.appId, auth_time: claims.auth_time })
      expect(refreshed.claims()).not.toHaveProperty("nonce")
      expect(refreshed["refresh_token_expires_at"]).toBe(tokens["refresh_token_expires_at"])

      const active = yield* promise(() => client.tokenIntrospection(config, refreshed.access_token))
      expect(active).toMatchObject({
        active: true,
        client_id: app.appId,
        sub: carbon.uuid,
        aud: app.appId,
        iss: url,
        scope: "openid profile email",
        token_type: "Bearer",
        username: `c:${carbon.handle}`
      })
      const refreshActive = yield* promise(() => client.tokenIntrospection(config, refreshed.refresh_token!))
      expect(refreshActive).toMatchObject({ active: true, token_type: "refresh_token", client_id: app.appId })
      // The rotated-away refresh token is spent.
      expect((yield* promise(() => client.tokenIntrospection(config, tokens.refresh_token!))).active).toBe(false)

      yield* promise(() => client.tokenRevocation(config, refreshed.refresh_token!))
      expect((yield* promise(() => client.tokenIntrospection(config, refreshed.access_token))).active).toBe(false)
      const afterRevoke = yield* promise(() =>
        client.fetchUserInfo(config, refreshed.access_token, carbon.uuid).then(() => "answered", (error) => error)
      )
      expect(afterRevoke).toBeInstanceOf(client.WWWAuthenticateChallengeError)
      expect((afterRevoke as client.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
        scheme: "bearer",
        parameters: { error: "invalid_token" }
      })
    }))

  it.effect("a client_secret_post relying party without openid gets no id_token, and the scopes it was granted", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon()
      const app = yield* createApp()
      const config = yield* relyingParty(app.appId, client.ClientSecretPost(app.secret))
      const verifier = client.randomPKCECodeVerifier()
      const code = yield* mintCode({
        appId: app.appId,
        accountUuid: carbon.uuid,
        codeChallenge: verifier,
        codeChallengeMethod: "plain",
        scope: "profile dob timezone"
      })
      const callback = new URL(REDIRECT_URI)
      callback.search = new URLSearchParams({ code, iss: url }).toString()
      const tokens = yield* promise(() =>
        client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: client.skipStateCheck })
      )
      expect(tokens.id_token).toBeUndefined()
      expect(tokens.scope).toBe("profile dob timezone")
      expect(tokens["account"]).toMatchObject({ timezone: expect.any(String), dob: null })
      expect(tokens["account"]).not.toHaveProperty("email")
      const userinfo = yield* promise(() => client.fetchUserInfo(config, tokens.access_token, carbon.uuid))
      expect(userinfo.zoneinfo).toBe((tokens["account"] as { timezone: string }).timezone)
      expect(userinfo).not.toHaveProperty("email")
    }))

  it.effect("/openapi.json documents both token responses, introspection and userinfo", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const document = yield* promise(() => fetch(`${url}/openapi.json`).then((res) => res.json() as Promise<any>))
      for (const schema of ["AppTokenResponse", "TokenResponse", "AppAccount", "IntrospectionResponse", "UserInfo"]) {
        expect(document.components.schemas).toHaveProperty(schema)
      }
      expect(Object.keys(document.paths["/v1/userinfo"]).sort()).toEqual(["get", "post"])
      expect(document.paths).toHaveProperty(["/v1/oauth/introspect"])
    }))
})
