import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { TestDatabase } from "@platform/database"
import { AUTHORIZATION_CODE, pkceHolds } from "@platform/oauth"
import { partialFake } from "@platform/testkit"
import { Duration, Effect, Layer, TestClock } from "effect"
import { createHash } from "node:crypto"
import { AppCredentials, TEST_APPS } from "../src/apps/AppCredentials.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { AppSigninsRepo, CodeRedemption } from "../src/oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "../src/oauth/AppTokenIssuer.ts"
import { AUTHORIZATION_CODE_LIFETIME, AuthorizationCodes } from "../src/oauth/AuthorizationCodes.ts"
import { authorizationCodeGrant } from "../src/oauth/authorizationCodeGrant.ts"
import { answerTokenRequest } from "../src/oauth/endpointSteps.ts"
import type { OAuthClient } from "../src/oauth/OAuthClient.ts"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { grantOf } from "../src/oauth/TokenGrants.ts"
import { atNow } from "./support/accountsRepo.ts"
import { createApp, mintCode, REDIRECT_URI } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"

// POST /v1/oauth/token's rules at the service level: the steps before the grant on fakes, then the
// authorization_code grant on a fresh database. The wire answers stay in oauth-apps-refusals.test.ts.

const app = TEST_APPS.active
const basic = (appId: string, secret: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
const CODE = { grant_type: AUTHORIZATION_CODE, code: "sac_test", code_verifier: "v".repeat(43), redirect_uri: REDIRECT_URI }

/**
 * The token endpoint's steps before the grant (POST /v1/oauth/token: client authentication, grants per
 * client) over AppCredentials.Test, with the real authorization_code grant on fakes: spending a code is
 * the only thing it may do, counted in `redeemed`; anything else it reached would die.
 */
const tokenRequest = (authorization: string | undefined, parameters: Record<string, string>) =>
  Effect.gen(function*() {
    const redeemed: Array<string> = []
    const grant = yield* grantOf(AUTHORIZATION_CODE, authorizationCodeGrant).pipe(
      Effect.provide(Layer.mergeAll(
        partialFake(AppSigninsRepo, {
          redeemCode: (presented) => Effect.sync(() => redeemed.push(presented.code)).pipe(Effect.as(CodeRedemption.Unknown()))
        }),
        partialFake(SigninsRepo, {}),
        partialFake(AppTokenIssuer, {})
      ))
    )
    const grants = new Map([[AUTHORIZATION_CODE, grant]])
    const answer = yield* Effect.flip(answerTokenRequest(grants, authorization, new Map(Object.entries(parameters))))
    return { error: answer.error, description: answer.error_description, redeemed }
  }).pipe(Effect.provide(AppCredentials.Test))

/** [rule, Authorization header, body, the OAuth error] for requests refused before any grant runs. */
const refusals: ReadonlyArray<readonly [string, string | undefined, Record<string, string>, string]> = [
  ["grant_type is required", basic(app.appId, app.secret), { code: "sac_test" }, "invalid_request"],
  ["a secret in Basic and in the body is invalid_request", basic(app.appId, app.secret), { ...CODE, client_secret: app.secret }, "invalid_request"],
  ["a body client_id that differs from Basic is invalid_client", basic(app.appId, app.secret), { ...CODE, client_id: TEST_APPS.disabled.appId }, "invalid_client"],
  ["another app's secret is invalid_client", basic(app.appId, TEST_APPS.disabled.secret), CODE, "invalid_client"],
  ["an unknown app is invalid_client", basic("nosuchapp", app.secret), CODE, "invalid_client"],
  ["an app's client_id without its secret is invalid_client", undefined, { ...CODE, client_id: app.appId }, "invalid_client"],
  ["a wrong secret in the body is invalid_client", undefined, { ...CODE, client_id: app.appId, client_secret: "sas_wrong" }, "invalid_client"],
  ["a disabled app's right credentials are invalid_client", basic(TEST_APPS.disabled.appId, TEST_APPS.disabled.secret), CODE, "invalid_client"],
  ["no client_id and no credentials is invalid_request", undefined, CODE, "invalid_request"],
  ["the first-party client may not use authorization_code: unauthorized_client", undefined, { ...CODE, client_id: "accounts" }, "unauthorized_client"],
  ["an unknown grant_type is unsupported_grant_type", basic(app.appId, app.secret), { grant_type: "password" }, "unsupported_grant_type"]
]

describe("token endpoint: client authentication and grants per client, before the grant", () => {
  for (const [rule, authorization, body, error] of refusals) {
    it.effect(`${rule}, and the code is left untouched`, () =>
      Effect.gen(function*() {
        const answer = yield* tokenRequest(authorization, body)
        expect(answer.error).toBe(error)
        expect(answer.redeemed).toEqual([])
      }))
  }

  it.effect("a disabled app is told so", () =>
    Effect.gen(function*() {
      const answer = yield* tokenRequest(basic(TEST_APPS.disabled.appId, TEST_APPS.disabled.secret), CODE)
      expect(answer.description).toBe("This app is disabled.")
    }))

  it.effect("the right client reaches the grant, with its secret in Basic or in the body", () =>
    Effect.gen(function*() {
      for (
        const [authorization, body] of [
          [basic(app.appId, app.secret), CODE],
          [undefined, { ...CODE, client_id: app.appId, client_secret: app.secret }]
        ] as const
      ) {
        const answer = yield* tokenRequest(authorization, body)
        expect(answer.redeemed).toEqual([CODE.code])
        // The fake knows no code: the grant's own refusal, which only a request that got this far can meet.
        expect(answer).toMatchObject({ error: "invalid_grant", description: "The authorization code is not valid." })
      }
    }))
})

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
const codeFor = () =>
  Effect.gen(function*() {
    const { appId } = yield* createApp()
    const accountUuid = (yield* createCarbon()).uuid
    const verifier = newVerifier()
    const code = yield* mintCode({ appId, accountUuid, codeChallenge: s256(verifier), codeChallengeMethod: "S256" })
    return { appId, accountUuid, code, verifier }
  })

/** The sign-ins and memberships an account has: a refused exchange must have started neither. */
const startedFor = (accountUuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ signins: number; memberships: number }>`
        SELECT (SELECT count(*)::int FROM signins WHERE account_uuid = ${accountUuid}) AS signins,
          (SELECT count(*)::int FROM memberships WHERE account_uuid = ${accountUuid}) AS memberships
      `,
      (rows) => rows[0]
    ))
const NOTHING_STARTED = { signins: 0, memberships: 0 }

layer(GrantTest)("authorization_code grant: the rules of redeeming a code", (it) => {
  it.effect("a wrong, short or missing verifier is invalid_grant, starts nothing, and the code is spent", () =>
    Effect.gen(function*() {
      yield* atNow
      for (const wrong of [newVerifier(), "a".repeat(42), undefined]) {
        const { accountUuid, appId, code, verifier } = yield* codeFor()
        expect(yield* refusal(appClient(appId), { code, code_verifier: wrong })).toBe("invalid_grant")
        expect(yield* startedFor(accountUuid)).toEqual(NOTHING_STARTED)
        const reused = yield* Effect.flip(exchange(appClient(appId), { code, code_verifier: verifier }))
        expect(reused.error_description).toBe("The authorization code was already used; the tokens issued from it are revoked.")
        expect(yield* startedFor(accountUuid)).toEqual(NOTHING_STARTED)
      }
    }))

  it.effect("every pairing of a code's PKCE challenge with a sent verifier and a client: tokens exactly when RFC 7636 holds", () =>
    Effect.gen(function*() {
      yield* atNow
      const { appId } = yield* createApp()
      const verifier = newVerifier()
      const challenges = [null, { value: s256(verifier), method: "S256" as const }, { value: verifier, method: "plain" as const }]
      const sent = [undefined, verifier, newVerifier(), s256(verifier), `${verifier}!`, verifier.slice(0, 42)]
      for (const client of [appClient(appId), DEVELOPER]) {
        for (const challenge of challenges) {
          for (const codeVerifier of sent) {
            const accountUuid = (yield* createCarbon()).uuid
            const code = yield* mintCode({
              appId: client.clientId,
              accountUuid,
              codeChallenge: challenge?.value ?? null,
              codeChallengeMethod: challenge?.method ?? null
            })
            const holds = pkceHolds(challenge, codeVerifier) && (client.kind !== "developer" || challenge?.method === "S256")
            const answer = yield* Effect.either(exchange(client, { code, code_verifier: codeVerifier }))
            const pairing = `${client.kind}, challenge ${challenge?.method ?? "none"}, verifier ${String(codeVerifier)}`
            expect(answer._tag === "Right" ? "tokens" : answer.left.error, pairing).toBe(holds ? "tokens" : "invalid_grant")
            expect(yield* startedFor(accountUuid), pairing).toEqual(holds ? { signins: 1, memberships: 1 } : NOTHING_STARTED)
          }
        }
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
      expect(yield* startedFor(stolen.accountUuid)).toEqual(NOTHING_STARTED)
      expect(yield* refusal(appClient(stolen.appId), { code: stolen.code, code_verifier: stolen.verifier })).toBe("invalid_grant")
      for (const redirectUri of [`${REDIRECT_URI}/`, "https://rp.example.test/callbacK", "https://RP.example.test/callback"]) {
        const { accountUuid, appId, code, verifier } = yield* codeFor()
        expect(yield* refusal(appClient(appId), { code, code_verifier: verifier, redirect_uri: redirectUri })).toBe("invalid_grant")
        expect(yield* startedFor(accountUuid)).toEqual(NOTHING_STARTED)
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
  it.effect("an exchange for an account whose access was removed, or that is gone, starts nothing; an imported membership is claimed", () =>
    Effect.gen(function*() {
      yield* atNow
      const sql = yield* SqlClient.SqlClient
      const signinsOf = (accountUuid: string) =>
        Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM signins WHERE account_uuid = ${accountUuid}`, (rows) => rows[0]?.n)
      const membershipOf = (accountUuid: string) => sql`SELECT status FROM memberships WHERE account_uuid = ${accountUuid}`
      const withMembership = (appId: string, accountUuid: string, status: string) =>
        sql`INSERT INTO memberships (app_id, account_uuid, status, created_at) VALUES (${appId}, ${accountUuid}, ${status}, now())`

      const removed = yield* codeFor()
      yield* withMembership(removed.appId, removed.accountUuid, "access_removed")
      const refused = yield* Effect.flip(exchange(appClient(removed.appId), { code: removed.code, code_verifier: removed.verifier }))
      expect(refused).toMatchObject({ error: "invalid_grant", error_description: "The account's access to this app was removed." })
      expect(yield* signinsOf(removed.accountUuid)).toBe(0)
      expect(yield* membershipOf(removed.accountUuid)).toEqual([{ status: "access_removed" }])

      const deleted = yield* codeFor()
      yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${deleted.accountUuid}`
      const gone = yield* Effect.flip(exchange(appClient(deleted.appId), { code: deleted.code, code_verifier: deleted.verifier }))
      expect(gone).toMatchObject({ error: "invalid_grant", error_description: "The account of this code can no longer sign in." })
      expect(yield* signinsOf(deleted.accountUuid)).toBe(0)

      const imported = yield* codeFor()
      yield* withMembership(imported.appId, imported.accountUuid, "imported")
      const claimed = yield* exchange(appClient(imported.appId), { code: imported.code, code_verifier: imported.verifier })
      expect(claimed.membership_id).toBe(`${imported.appId}:${imported.accountUuid}`)
      expect(yield* membershipOf(imported.accountUuid)).toEqual([{ status: "active" }])
      expect(yield* signinsOf(imported.accountUuid)).toBe(1)
    }))
})
