import { expect, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, TestClock } from "effect"
import { createHash } from "node:crypto"
import { accountsMigrations } from "../src/migrations.ts"
import { AppSigninsRepo } from "../src/oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "../src/oauth/AppTokenIssuer.ts"
import { AUTHORIZATION_CODE_LIFETIME, AuthorizationCodes } from "../src/oauth/AuthorizationCodes.ts"
import { authorizationCodeGrant } from "../src/oauth/authorizationCodeGrant.ts"
import type { OAuthClient } from "../src/oauth/OAuthClient.ts"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { atNow } from "./support/accountsRepo.ts"
import { createApp, mintCode, REDIRECT_URI } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"

/** The grant's own services on a fresh database; tokens from AppTokenIssuer.Test (no signing keys). */
const GrantTest = Layer.mergeAll(AuthorizationCodes.Default, AppSigninsRepo.Default, SigninsRepo.Default, AppTokenIssuer.Test).pipe(
  Layer.provideMerge(TestDatabase.layer(accountsMigrations))
)

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")
const newVerifier = () => randomHex(64)
const appClient = (appId: string): OAuthClient => ({ kind: "app", clientId: appId })
const DEVELOPER: OAuthClient = { kind: "developer", clientId: "developer" }

const exchange = (client: OAuthClient, parameters: Record<string, string | undefined>) =>
  authorizationCodeGrant(
    client,
    new Map(Object.entries({ redirect_uri: REDIRECT_URI, ...parameters }).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])))
  )
/** The OAuth error code the exchange is refused with. */
const refusal = (client: OAuthClient, parameters: Record<string, string | undefined>) =>
  Effect.map(Effect.flip(exchange(client, parameters)), (error) => error.error)

/** A new app and a Carbon, and a code for them with a PKCE S256 challenge; answers the verifier too. */
const codeFor = (appId?: string) =>
  Effect.gen(function*() {
    const client = appId ?? (yield* createApp()).appId
    const accountUuid = (yield* createCarbon()).uuid
    const verifier = newVerifier()
    const code = yield* mintCode({ appId: client, accountUuid, codeChallenge: s256(verifier), codeChallengeMethod: "S256" })
    return { appId: client, accountUuid, code, verifier }
  })

layer(GrantTest)("authorization_code grant: the rules of redeeming a code", (it) => {
  it.effect("a wrong, short or missing verifier is invalid_grant, and the code is spent", () =>
    Effect.gen(function*() {
      yield* atNow
      for (const wrong of [newVerifier(), "a".repeat(42), undefined]) {
        const { appId, code, verifier } = yield* codeFor()
        expect(yield* refusal(appClient(appId), { code, code_verifier: wrong })).toBe("invalid_grant")
        expect(yield* refusal(appClient(appId), { code, code_verifier: verifier })).toBe("invalid_grant")
      }
    }))

  it.effect("a verifier for a code issued without a challenge is invalid_grant; without one the code works", () =>
    Effect.gen(function*() {
      yield* atNow
      const { appId } = yield* createApp()
      const carbon = yield* createCarbon()
      const plain = yield* mintCode({ appId, accountUuid: carbon.uuid })
      const refused = yield* Effect.flip(exchange(appClient(appId), { code: plain, code_verifier: newVerifier() }))
      expect(refused.error_description).toBe("The code was issued without a PKCE challenge; send no code_verifier.")
      const again = yield* mintCode({ appId, accountUuid: carbon.uuid })
      const tokens = yield* exchange(appClient(appId), { code: again })
      expect(tokens.membership_id).toBe(`${appId}:${carbon.uuid}`)
      expect(tokens.access_token).toMatch(/^test-access-token:/)
    }))

  it.effect("a code redeemed by another app, or with another redirect_uri, is invalid_grant; without redirect_uri, invalid_request", () =>
    Effect.gen(function*() {
      yield* atNow
      const { appId: other } = yield* createApp()
      const stolen = yield* codeFor()
      expect(yield* refusal(appClient(other), { code: stolen.code, code_verifier: stolen.verifier })).toBe("invalid_grant")
      for (const redirectUri of [`${REDIRECT_URI}/`, "https://rp.example.test/callbacK", "https://RP.example.test/callback"]) {
        const { appId, code, verifier } = yield* codeFor()
        expect(yield* refusal(appClient(appId), { code, code_verifier: verifier, redirect_uri: redirectUri })).toBe("invalid_grant")
      }
      const elsewhere = yield* codeFor()
      expect(yield* refusal(appClient(elsewhere.appId), { code: elsewhere.code, code_verifier: elsewhere.verifier, redirect_uri: undefined }))
        .toBe("invalid_request")
    }))

  it.effect("the client developer's codes need PKCE S256: plain or none is invalid_grant and burns the code", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const verifier = newVerifier()
      const plainCode = yield* mintCode({ appId: "developer", accountUuid: carbon.uuid, codeChallenge: verifier, codeChallengeMethod: "plain" })
      expect(yield* refusal(DEVELOPER, { code: plainCode, code_verifier: verifier })).toBe("invalid_grant")
      expect(yield* refusal(DEVELOPER, { code: plainCode, code_verifier: verifier })).toBe("invalid_grant")
      const noChallenge = yield* mintCode({ appId: "developer", accountUuid: carbon.uuid })
      expect(yield* refusal(DEVELOPER, { code: noChallenge })).toBe("invalid_grant")
      const code = yield* mintCode({ appId: "developer", accountUuid: carbon.uuid, codeChallenge: s256(verifier), codeChallengeMethod: "S256" })
      expect((yield* exchange(DEVELOPER, { code, code_verifier: verifier })).membership_id).toBe(`developer:${carbon.uuid}`)
    }))

  it.effect("a code lasts 120 seconds: one presented later is invalid_grant", () =>
    Effect.gen(function*() {
      yield* atNow
      const { appId, code, verifier } = yield* codeFor()
      yield* TestClock.adjust(Duration.sum(AUTHORIZATION_CODE_LIFETIME, Duration.seconds(1)))
      const refused = yield* Effect.flip(exchange(appClient(appId), { code, code_verifier: verifier }))
      expect(refused).toMatchObject({ error: "invalid_grant", error_description: "The authorization code has expired." })
    }))
})
