import { oauthError } from "@platform/http"
import { Effect, Option } from "effect"
import type { SigninRow } from "../auth/Signin.ts"
import { AppAccountsRepo } from "./AppAccountsRepo.ts"
import { appAccessProblem } from "./appAccess.ts"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import { AppTokenIssuer } from "./AppTokenIssuer.ts"

/**
 * The app Token response after a rotation: the sign-in's own grant again,
 * an id_token when openid was granted (same auth_time, no nonce: OpenID
 * Connect Core §12.2).
 */
export const appRefreshResponse = (signin: SigninRow, refreshToken: string, now: Date) =>
  Effect.gen(function*() {
    const grant = yield* Effect.flatMap(AppSigninsRepo, (repo) => repo.grantOf(signin.id))
    if (Option.isNone(grant)) return yield* oauthError("invalid_grant", "The refresh token is not valid.")
    const account = yield* Effect.flatMap(AppAccountsRepo, (repo) => repo.find(signin.account_uuid, grant.value.app_id))
    if (Option.isNone(account) || appAccessProblem(account.value) !== null) {
      return yield* oauthError("invalid_grant", "The app may no longer act for this account.")
    }
    const issuer = yield* AppTokenIssuer
    return yield* issuer.respond({ signin, grant: grant.value, refreshToken, account: account.value, nonce: null, now })
  })
