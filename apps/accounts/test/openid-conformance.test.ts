import { expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as jose from "jose"
import { createHash } from "node:crypto"
import * as client from "openid-client"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp, mintCode, REDIRECT_URI } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"

const INTERNAL_TOKEN = "internal-token-for-openid-tests"
const promise = <A>(run: () => Promise<A>) => Effect.promise(run)
const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => promise(() => fetchAnswer(`${url}${path}`, init)))
const basic = (appId: string, secret: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`

/** openid-client, unmodified, as the relying party of an app, with the client metadata given. */
const relyingParty = (appId: string, secret: string, metadata: Partial<client.ClientMetadata> = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    promise(() =>
      client.discovery(new URL(url), appId, metadata, client.ClientSecretBasic(secret), {
        execute: [client.allowInsecureRequests]
      })
    ))

/** A code for a new Carbon with PKCE, state and nonce, and what the relying party keeps to redeem it. */
const signInCode = (appId: string) =>
  Effect.gen(function*() {
    const { url } = yield* AccountsUnderTest
    const carbon = yield* createCarbon({ displayName: "Grace Relying" })
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const code = yield* mintCode({
      appId,
      accountUuid: carbon.uuid,
      codeChallenge: yield* promise(() => client.calculatePKCECodeChallenge(verifier)),
      codeChallengeMethod: "S256",
      scope: "openid profile email",
      nonce
    })
    const callback = new URL(REDIRECT_URI)
    callback.search = new URLSearchParams({ code, state, iss: url }).toString()
    return { carbon, callback, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } }
  })

/** An app access token for a new Carbon, through the token endpoint. */
const accessTokenFor = (app: { readonly appId: string; readonly secret: string }) =>
  Effect.gen(function*() {
    const carbon = yield* createCarbon()
    const code = yield* mintCode({ appId: app.appId, accountUuid: carbon.uuid, scope: "profile" })
    const answer = yield* call("/v1/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(app.appId, app.secret) },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }).toString()
    })
    expect(answer.status).toBe(200)
    return { carbon, accessToken: answer.body.access_token as string }
  })

const userinfoForm = (body: string, headers: Record<string, string> = {}) =>
  call("/v1/userinfo", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body })

layer(AccountsTest({ internalToken: Option.some(Redacted.make(INTERNAL_TOKEN)) }), { excludeTestServices: true })(
  "OpenID conformance for relying parties",
  (it) => {
    it.effect("discovery lists EdDSA and RS256 for id tokens, and the JWKS publishes a key for each", () =>
      Effect.gen(function*() {
        const metadata = (yield* call("/.well-known/openid-configuration")).body
        expect(metadata.id_token_signing_alg_values_supported).toEqual(["EdDSA", "RS256"])
        const jwks = (yield* call("/.well-known/jwks.json")).body as { keys: Array<{ alg: string; kty: string; use?: string }> }
        expect(jwks.keys.map((key) => `${key.kty}/${key.alg}`).sort()).toEqual(["OKP/EdDSA", "RSA/RS256"])
      }))

    it.effect("openid-client with id_token_signed_response_alg RS256 signs in with an RS256 app; its id_token verifies", () =>
      Effect.gen(function*() {
        const { url } = yield* AccountsUnderTest
        const app = yield* createApp([REDIRECT_URI], { idTokenSignedResponseAlg: "RS256" })
        const config = yield* relyingParty(app.appId, app.secret, { id_token_signed_response_alg: "RS256" })
        const { callback, carbon, checks } = yield* signInCode(app.appId)
        const tokens = yield* promise(() => client.authorizationCodeGrant(config, callback, checks))
        const header = jose.decodeProtectedHeader(tokens.id_token!)
        expect(header).toMatchObject({ alg: "RS256", typ: "JWT", kid: expect.any(String) })
        const claims = tokens.claims()!
        expect(claims).toMatchObject({ iss: url, sub: carbon.uuid, aud: app.appId, azp: app.appId, nonce: checks.expectedNonce })
        // OpenID Connect Core §3.1.3.6: at_hash with RS256's SHA-256.
        const digest = createHash("sha256").update(tokens.access_token).digest()
        expect(claims["at_hash"]).toBe(digest.subarray(0, 16).toString("base64url"))
        // The signature holds against the published RSA key, and only RS256 is accepted for it.
        const keys = jose.createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`))
        const verified = yield* promise(() =>
          jose.jwtVerify(tokens.id_token!, keys, { algorithms: ["RS256"], issuer: url, audience: app.appId })
        )
        expect(verified.payload.sub).toBe(carbon.uuid)
        // Access tokens stay EdDSA at+jwt, and still work at userinfo.
        expect(jose.decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: "EdDSA", typ: "at+jwt" })
        const userinfo = yield* promise(() => client.fetchUserInfo(config, tokens.access_token, carbon.uuid))
        expect(userinfo).toMatchObject({ sub: carbon.uuid, name: "Grace Relying" })
        // A refresh answers a new id_token signed the same way.
        const refreshed = yield* promise(() => client.refreshTokenGrant(config, tokens.refresh_token!))
        expect(jose.decodeProtectedHeader(refreshed.id_token!).alg).toBe("RS256")
      }))

    it.effect("an EdDSA app's id_token is refused by a relying party that insists on RS256", () =>
      Effect.gen(function*() {
        const app = yield* createApp()
        const config = yield* relyingParty(app.appId, app.secret, { id_token_signed_response_alg: "RS256" })
        const { callback, checks } = yield* signInCode(app.appId)
        const refused = yield* promise(() => client.authorizationCodeGrant(config, callback, checks).then(() => "accepted", (error) => error))
        expect(refused).toBeInstanceOf(Error)
        expect(String((refused as Error).cause)).toMatch(/unexpected JWT "alg" header/)
      }))

    it.effect("the registry sets id_token_signed_response_alg; the App record shows it; absent keeps it", () =>
      Effect.gen(function*() {
        const owner = yield* createCarbon()
        const appId = `oidc-${Date.now().toString(36)}`
        const secret = "sas_registry-secret-for-openid"
        const sync = (body: Record<string, unknown>) =>
          call(`/v1/internal/apps/${appId}`, {
            method: "PUT",
            headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "RS256 app", owner_uuid: owner.uuid, status: "active", ...body })
          })
        const created = yield* sync({
          id_token_signed_response_alg: "RS256",
          app_secret_sha256: createHash("sha256").update(secret).digest("hex")
        })
        expect(created.status).toBe(200)
        expect(created.body).toMatchObject({ created: true, app: { app_id: appId, id_token_signed_response_alg: "RS256" } })
        const kept = yield* sync({ name: "Renamed" })
        expect(kept.body.app).toMatchObject({ name: "Renamed", id_token_signed_response_alg: "RS256" })
        const record = yield* call(`/v1/apps/${appId}`, { headers: { authorization: basic(appId, secret) } })
        expect(record.body.id_token_signed_response_alg).toBe("RS256")
        const refused = yield* sync({ id_token_signed_response_alg: "HS256" })
        expect(refused.status).toBe(422)
        expect(Object.keys(refused.body.error.details.fields)).toEqual(["id_token_signed_response_alg"])
        const back = yield* sync({ id_token_signed_response_alg: "EdDSA" })
        expect(back.body.app.id_token_signed_response_alg).toBe("EdDSA")
      }))

    it.effect("a fake app's record shows EdDSA by default", () =>
      Effect.gen(function*() {
        const app = yield* createApp()
        const record = yield* call(`/v1/apps/${app.appId}`, { headers: { authorization: basic(app.appId, app.secret) } })
        expect(record.body.id_token_signed_response_alg).toBe("EdDSA")
      }))

    it.effect("userinfo takes the access token in a form body (RFC 6750 §2.2)", () =>
      Effect.gen(function*() {
        const app = yield* createApp()
        const { accessToken, carbon } = yield* accessTokenFor(app)
        const answer = yield* userinfoForm(new URLSearchParams({ access_token: accessToken, other: "ignored" }).toString())
        expect(answer.status).toBe(200)
        expect(answer.body.sub).toBe(carbon.uuid)
        expect(answer.headers.get("cache-control")).toBe("no-store")
        const bad = yield* userinfoForm("access_token=not.a.token")
        expect(bad.status).toBe(401)
        expect(bad.body.error.code).toBe("invalid_token")
        expect(bad.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token"`)
      }))

    it.effect("userinfo refuses a token in the header and the form body at once: 400 invalid_request", () =>
      Effect.gen(function*() {
        const app = yield* createApp()
        const { accessToken } = yield* accessTokenFor(app)
        const both = yield* userinfoForm(`access_token=${accessToken}`, { authorization: `Bearer ${accessToken}` })
        expect(both.status).toBe(400)
        expect(both.body.error.code).toBe("invalid_request")
        expect(both.headers.get("www-authenticate")).toBe(`Bearer error="invalid_request"`)
        expect(both.headers.get("cache-control")).toBe("no-store")
        // The header alone, and a POST with neither, answer as before.
        expect((yield* call("/v1/userinfo", { method: "POST", headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200)
        const neither = yield* userinfoForm("")
        expect(neither.status).toBe(401)
        expect(neither.body.error.code).toBe("unauthenticated")
        expect(neither.headers.get("www-authenticate")).toBe("Bearer")
      }))
  }
)
