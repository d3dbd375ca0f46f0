import { type OAuthError, oauthError, required } from "@platform/oauth"
import { now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { AppSigninsRepo } from "../oauth/AppSigninsRepo.ts"
import { AppTokenIssuer } from "../oauth/AppTokenIssuer.ts"
import type { AppTokenResponse } from "../oauth/AppTokenResponse.ts"
import { SHORT_LIVED_TOKEN } from "../oauth/clientGrants.ts"
import type { OAuthClient } from "../oauth/OAuthClient.ts"
import { addGrant, grantOf } from "../oauth/TokenGrants.ts"
import { ShortLivedTokensRepo } from "./ShortLivedTokensRepo.ts"

const invalidGrant = (description: string) => Effect.fail(oauthError("invalid_grant", description))

/**
 * grant_type urn:accounts:params:oauth:grant-type:short-lived-token (CONTRACT.md, parameter `slt`) for an
 * app authenticated as itself. The token is spent in one statement, so of two exchanges (in any processes)
 * one alone goes on; the app sign-in (making or touching the membership) is one statement too.
 */
export const shortLivedTokenGrant = (
  client: OAuthClient,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<AppTokenResponse, OAuthError, ShortLivedTokensRepo | AppSigninsRepo | AppTokenIssuer> =>
  Effect.gen(function*() {
    const slt = yield* required(parameters, "slt")
    const tokens = yield* ShortLivedTokensRepo
    const appSignins = yield* AppSigninsRepo
    const issuer = yield* AppTokenIssuer
    const at = yield* now
    // Spent in a statement of its own: a token presented by the wrong app or too late is gone all the same.
    const started = yield* Effect.gen(function*() {
      const spent = yield* tokens.spend(slt, at)
      if (Option.isNone(spent)) return yield* invalidGrant("The short-lived token is not valid.")
      const token = spent.value
      if (!token.first_use) return yield* invalidGrant("The short-lived token was used already.")
      if (token.app_id !== client.clientId) return yield* invalidGrant("The short-lived token was minted for another app.")
      if (token.expires_at.getTime() <= at.getTime()) return yield* invalidGrant("The short-lived token has expired.")
      const signin = yield* appSignins.startAppSignin({
        appId: token.app_id,
        accountUuid: token.silicon_uuid,
        scope: token.scope,
        authTime: at,
        method: "short_lived_token"
      }, at)
      if (signin._tag === "Refused") {
        return yield* invalidGrant(
          signin.reason === "access_removed"
            ? "The Silicon's access to this app was removed."
            : "The Silicon can no longer sign in."
        )
      }
      return { signin, scope: token.scope }
    })
    return yield* issuer.respond({
      signin: started.signin.signin,
      grant: { app_id: client.clientId, scope: started.scope, auth_time: at },
      refreshToken: started.signin.refreshToken,
      account: started.signin.account,
      nonce: null,
      now: at
    })
  })

/** The short-lived-token grant, added to the token endpoint's grants. */
export const ShortLivedTokenGrantLive = addGrant(grantOf(SHORT_LIVED_TOKEN, shortLivedTokenGrant)).pipe(
  Layer.provide([ShortLivedTokensRepo.Default, AppSigninsRepo.Default, AppTokenIssuer.Default])
)
