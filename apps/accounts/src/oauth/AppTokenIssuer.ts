import { Duration, Effect, Layer } from "effect"
import { ACCESS_TOKEN_LIFETIME, AccessTokens } from "./AccessTokens.ts"
import type { IssuedSignin } from "./Signin.ts"
import { appAccount, membershipId, scopeSet } from "./AppAccount.ts"
import type { AppAccountRow } from "./AppAccountsRepo.ts"
import type { AppGrant } from "./AppSigninsRepo.ts"
import type { AppTokenResponse } from "./AppTokenResponse.ts"
import { IdTokens } from "./IdTokens.ts"
import { AccountsConfig } from "../config.ts"

/** What an app's Token response is made from. */
export interface AppTokenInput {
  readonly signin: IssuedSignin
  readonly grant: AppGrant
  readonly refreshToken: string
  readonly account: AppAccountRow
  readonly nonce: string | null
  readonly now: Date
}

const wantsIdToken = (grant: AppGrant) => scopeSet(grant.scope).has("openid")

/** The response around tokens already made; an id token only for scope openid. */
const appTokenResponse = (
  publicUrl: string,
  input: AppTokenInput,
  access: { readonly token: string; readonly expiresIn: number },
  idToken: string | undefined
): AppTokenResponse => ({
  access_token: access.token,
  token_type: "Bearer",
  expires_in: access.expiresIn,
  refresh_token: input.refreshToken,
  refresh_token_expires_at: input.signin.expires_at.toISOString(),
  scope: input.grant.scope,
  ...(idToken === undefined ? {} : { id_token: idToken }),
  membership_id: membershipId(input.grant.app_id, input.signin.account_uuid),
  account: appAccount(input.account, input.grant.app_id, input.grant.scope, publicUrl)
})

/** Turns an app sign-in into the app's Token response: audience and client the app, the granted scopes. */
export class AppTokenIssuer extends Effect.Service<AppTokenIssuer>()("accounts/AppTokenIssuer", {
  effect: Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const idTokens = yield* IdTokens
    const { publicUrl } = yield* AccountsConfig

    const respond = (input: AppTokenInput): Effect.Effect<AppTokenResponse> =>
      Effect.gen(function*() {
        const { grant, now, signin } = input
        const access = yield* tokens.issue({
          accountUuid: signin.account_uuid,
          signinId: signin.id,
          clientId: grant.app_id,
          audience: grant.app_id,
          scope: grant.scope,
          now
        })
        const idToken = wantsIdToken(grant)
          ? yield* idTokens.issue({
            accountUuid: signin.account_uuid,
            appId: grant.app_id,
            authTime: grant.auth_time,
            nonce: input.nonce,
            accessToken: access.token,
            now,
            // A grant's app always exists (app_signins references apps); the default only answers the LEFT JOIN's type.
            alg: input.account.app_id_token_alg ?? "EdDSA"
          })
          : undefined
        return appTokenResponse(publicUrl, input, access, idToken)
      })

    return { respond } as const
  }),
  dependencies: [IdTokens.Default, AccessTokens.Default]
}) {
  /**
   * Unsigned tokens naming the sign-in (`test-access-token:<signin id>`, `test-id-token:<signin id>`), so a
   * grant's rules are tested without signing keys or settings (the public origin is `https://accounts.test`);
   * the response around them is the real one.
   */
  static Test = Layer.succeed(
    this,
    this.make({
      respond: (input) =>
        Effect.succeed(appTokenResponse(
          "https://accounts.test",
          input,
          { token: `test-access-token:${input.signin.id}`, expiresIn: Duration.toSeconds(ACCESS_TOKEN_LIFETIME) },
          wantsIdToken(input.grant) ? `test-id-token:${input.signin.id}` : undefined
        ))
    })
  )
}
