import { oauthError } from "@platform/oauth"
import { Effect, Option } from "effect"
import type { SigninRow } from "./Signin.ts"
import type { AppSigninView } from "./AppAccountsRepo.ts"
import { appAccessProblem } from "./appAccess.ts"
import { AppTokenIssuer } from "./AppTokenIssuer.ts"

/**
 * The app Token response after a rotation: the sign-in's own grant again,
 * an id_token when openid was granted (same auth_time, no nonce: OpenID
 * Connect Core §12.2).
 */
export const appRefreshResponse = (
  signin: SigninRow,
  view: Option.Option<AppSigninView>,
  refreshToken: string,
  now: Date
) =>
  Effect.gen(function*() {
    if (Option.isNone(view)) return yield* oauthError("invalid_grant", "The refresh token is not valid.")
    if (appAccessProblem(view.value) !== null) {
      return yield* oauthError("invalid_grant", "The app may no longer act for this account.")
    }
    const issuer = yield* AppTokenIssuer
    const { app_id, auth_time, scope } = view.value
    return yield* issuer.respond({
      signin,
      grant: { app_id, scope, auth_time },
      refreshToken,
      account: view.value,
      nonce: null,
      now
    })
  })
