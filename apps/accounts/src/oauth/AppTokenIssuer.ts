import { Effect } from "effect"
import { AccessTokens } from "./AccessTokens.ts"
import type { IssuedSignin } from "./Signin.ts"
import { appAccount, membershipId, scopeSet } from "./AppAccount.ts"
import type { AppAccountRow } from "./AppAccountsRepo.ts"
import type { AppGrant } from "./AppSigninsRepo.ts"
import type { AppTokenResponse } from "./AppTokenResponse.ts"
import { IdTokens } from "./IdTokens.ts"

/** Turns an app sign-in into the app's Token response: audience and client the app, the granted scopes. */
export class AppTokenIssuer extends Effect.Service<AppTokenIssuer>()("accounts/AppTokenIssuer", {
  effect: Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const idTokens = yield* IdTokens

    const respond = (input: {
      readonly signin: IssuedSignin
      readonly grant: AppGrant
      readonly refreshToken: string
      readonly account: AppAccountRow
      readonly nonce: string | null
      readonly now: Date
    }) =>
      Effect.gen(function*() {
        const { account, grant, now, signin } = input
        const access = yield* tokens.issue({
          accountUuid: signin.account_uuid,
          signinId: signin.id,
          clientId: grant.app_id,
          audience: grant.app_id,
          scope: grant.scope,
          now
        })
        const idToken = scopeSet(grant.scope).has("openid")
          ? yield* idTokens.issue({
            accountUuid: signin.account_uuid,
            appId: grant.app_id,
            authTime: grant.auth_time,
            nonce: input.nonce,
            accessToken: access.token,
            now
          })
          : undefined
        const response: AppTokenResponse = {
          access_token: access.token,
          token_type: "Bearer",
          expires_in: access.expiresIn,
          refresh_token: input.refreshToken,
          refresh_token_expires_at: signin.expires_at.toISOString(),
          scope: grant.scope,
          ...(idToken === undefined ? {} : { id_token: idToken }),
          membership_id: membershipId(grant.app_id, signin.account_uuid),
          account: appAccount(account, grant.app_id, grant.scope)
        }
        return response
      })

    return { respond } as const
  }),
  dependencies: [IdTokens.Default, AccessTokens.Default]
}) {}
