import { describe, expect, it } from "@effect/vitest"
import { AUTHORIZATION_CODE } from "@platform/oauth"
import { partialFake } from "@platform/testkit"
import { Effect, Layer } from "effect"
import { AppCredentials, TEST_APPS } from "../src/apps/AppCredentials.ts"
import { authorizationCodeGrant } from "../src/oauth/authorizationCodeGrant.ts"
import { AppSigninsRepo } from "../src/oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "../src/oauth/AppTokenIssuer.ts"
import { AuthorizationCodes, Redemption } from "../src/oauth/AuthorizationCodes.ts"
import { answerTokenRequest } from "../src/oauth/endpointSteps.ts"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { grantOf } from "../src/oauth/TokenGrants.ts"

const app = TEST_APPS.active
const basic = (appId: string, secret: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
const CODE = { grant_type: AUTHORIZATION_CODE, code: "sac_test", code_verifier: "v".repeat(43), redirect_uri: "https://rp.example.test/cb" }

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
        partialFake(AuthorizationCodes, {
          redeem: (code) => Effect.sync(() => redeemed.push(code)).pipe(Effect.as(Redemption.Unknown()))
        }),
        partialFake(AppSigninsRepo, {}),
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
