import { sha256Hex } from "@platform/crypto"
import { Effect, Either, Option } from "effect"
import { accountIdOf } from "../accounts/AccountRow.ts"
import { AccessTokens, audiencesOf } from "./AccessTokens.ts"
import { REFRESH_TOKEN_PREFIX } from "./SigninsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { membershipId } from "./AppAccount.ts"
import { AppAccountsRepo } from "./AppAccountsRepo.ts"
import { liveAppSignin } from "./appAccess.ts"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import type { IntrospectionResponse } from "./Introspection.ts"
import { epochSeconds } from "@platform/service"

const INACTIVE: IntrospectionResponse = { active: false }

interface LiveToken {
  readonly signinId: string
  readonly accountUuid: string
  readonly tokenType: string
  readonly iat: number
  readonly exp: number
}

/**
 * RFC 7662 for an app: its own access and refresh tokens, while their
 * sign-in is live and the app may still act for the account. Another app's
 * token, an expired, used or revoked one, or garbage: inactive.
 */
export const introspect = (appId: string, token: string, now: Date) =>
  Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const appSignins = yield* AppSigninsRepo
    const accounts = yield* AppAccountsRepo
    const { publicUrl } = yield* AccountsConfig

    const fromRefresh = Effect.map(appSignins.refreshTokenState(sha256Hex(token)), (state) =>
      Option.filter(state, (s) => s.used_at === null && s.client_id === appId).pipe(Option.map((s): LiveToken => ({
        signinId: s.id,
        accountUuid: s.account_uuid,
        tokenType: "refresh_token",
        iat: epochSeconds(s.token_created_at),
        exp: epochSeconds(s.expires_at)
      }))))

    const fromAccess = tokens.verifyAnyAudience(token, now).pipe(
      Effect.map((claims) =>
        claims.client_id === appId && audiencesOf(claims).includes(appId)
          ? Option.some<LiveToken>({
            signinId: claims.sid,
            accountUuid: claims.sub,
            tokenType: "Bearer",
            iat: claims.iat ?? 0,
            exp: claims.exp ?? 0
          })
          : Option.none()
      ),
      Effect.orElseSucceed(() => Option.none<LiveToken>())
    )

    const live = yield* token.startsWith(REFRESH_TOKEN_PREFIX) ? fromRefresh : fromAccess
    if (Option.isNone(live)) return INACTIVE
    const view = liveAppSignin(yield* accounts.findBySignin(live.value.signinId), { appId, accountUuid: live.value.accountUuid }, now)
    if (Either.isLeft(view)) return INACTIVE
    const username = accountIdOf(view.right)
    const answer: IntrospectionResponse = {
      active: true,
      scope: view.right.scope,
      client_id: appId,
      ...(username === null ? {} : { username }),
      token_type: live.value.tokenType,
      exp: live.value.exp,
      iat: live.value.iat,
      sub: live.value.accountUuid,
      aud: appId,
      iss: publicUrl,
      membership_id: membershipId(appId, live.value.accountUuid)
    }
    return answer
  })
