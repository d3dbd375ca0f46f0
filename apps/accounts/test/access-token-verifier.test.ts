import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { type AccessTokenVerifierOptions, makeAccessTokenVerifier } from "@platform/auth"
import { SigningKeys } from "@platform/signing-keys"
import { Duration, Effect, Schedule } from "effect"
import * as jose from "jose"
import { IdTokens } from "../src/oauth/IdTokens.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

/**
 * A verifier as another service (the registry) builds one: accounts' URL as issuer, its JWKS fetched
 * over HTTP from the default path. Another issuer is still given accounts' JWKS.
 */
const verifierOf = (options: Omit<AccessTokenVerifierOptions, "issuer"> & { readonly issuer?: string }) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    makeAccessTokenVerifier({
      issuer: url,
      ...(options.issuer === undefined ? {} : { jwksUrl: `${url}/.well-known/jwks.json` }),
      ...options
    })).pipe(Effect.provide(FetchHttpClient.layer))

const refusal = <A>(verifying: Effect.Effect<A, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(verifying), (error) => "reason" in error ? `${error._tag}:${String(error.reason)}` : error._tag)

const server = AccountsTest({ keysRefreshSeconds: 1 })

layer(server, { excludeTestServices: true })("accounts' access tokens verified by @platform/auth over the JWKS", (it) => {
  it.effect("a first-party access token passes, naming the account, its sign-in and the client", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon()
      const { accessToken, signinId } = yield* signInDirectly(carbon.uuid)
      const { verify } = yield* verifierOf({ audience: "accounts" })
      expect(yield* verify(accessToken)).toEqual({
        iss: url,
        sub: carbon.uuid,
        sid: signinId,
        aud: "accounts",
        client_id: "accounts",
        scope: "profile",
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.stringMatching(/^at_/)
      })
    }))

  it.effect("another audience, another issuer, an id token and a Silicon's identity token are refused", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      expect(yield* refusal((yield* verifierOf({ audience: "registry" })).verify(accessToken))).toBe("AccessTokenWrongAudience")
      const elsewhere = yield* verifierOf({ issuer: "https://accounts.example", audience: "accounts" })
      expect(yield* refusal(elsewhere.verify(accessToken))).toBe("AccessTokenInvalid:wrong_issuer")

      for (const alg of ["EdDSA", "RS256"] as const) {
        const idToken = yield* Effect.flatMap(IdTokens, (idTokens) =>
          idTokens.issue({
            accountUuid: carbon.uuid,
            appId: "some-app",
            authTime: new Date(),
            nonce: null,
            accessToken,
            now: new Date(),
            alg
          })).pipe(Effect.provide(IdTokens.Default))
        expect(yield* refusal((yield* verifierOf({ audience: "some-app" })).verify(idToken)), alg).toBe(
          "AccessTokenInvalid:not_access_token"
        )
      }

      const audience = "sts.cloud.example"
      const created = yield* createSilicon()
      const custodian = yield* signInDirectly(created.custodian.uuid)
      const allowed = yield* callWithBearer("PUT", `/v1/silicons/${created.id}/identity-audiences`, custodian.accessToken, {
        audiences: [audience]
      })
      expect(allowed.status).toBe(200)
      const silicon = yield* signInDirectly(created.silicon.uuid)
      const issued = yield* callWithBearer("POST", "/v1/me/identity-tokens", silicon.accessToken, { audience })
      expect(issued.status).toBe(201)
      expect(yield* refusal((yield* verifierOf({ audience, algorithms: ["EdDSA", "RS256"] })).verify(issued.body.identity_token)))
        .toBe("AccessTokenInvalid:not_access_token")
    }))

  // The 30-second cooldown between fetches is @platform/auth's own test, under TestClock; here it is
  // off, so that the rotation is seen as soon as the server publishes it.
  it.effect("after a key rotation, a token of the new key passes: the unknown kid fetches the JWKS again", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { verify } = yield* verifierOf({ audience: "accounts", refetchCooldown: Duration.zero })
      const before = yield* signInDirectly(carbon.uuid)
      yield* verify(before.accessToken)

      const keys = yield* SigningKeys
      const rotated = yield* Effect.orDie(keys.rotate)
      const after = yield* signInDirectly(carbon.uuid)
      const newKid = jose.decodeProtectedHeader(after.accessToken).kid
      expect(newKid).toBe(rotated.find((key) => key.alg === "EdDSA")?.kid)
      // Rotated as the operator command does, from another SigningKeys on the same database: the
      // server publishes the new key within its refresh interval (1 second here).
      const verified = yield* verify(after.accessToken).pipe(
        Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 50 })
      )
      expect(verified.sid).toBe(after.signinId)
      // The retired key stays published for the tokens it signed.
      expect((yield* verify(before.accessToken)).sid).toBe(before.signinId)
    }))
})
