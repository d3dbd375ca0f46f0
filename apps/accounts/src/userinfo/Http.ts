import type { HttpServerRequest } from "@effect/platform"
import { bearerToken } from "@platform/auth"
import { noStore } from "@platform/http"
import { Effect, Either, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AccessTokens, audiencesOf } from "../oauth/AccessTokens.ts"
import {
  IdentityTokenNotAccepted,
  InvalidAuthorization,
  InvalidToken,
  SessionExpired,
  TokenRevoked,
  TokenWrongAudience,
  Unauthenticated
} from "../auth/errors.ts"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { compiledGroup, now } from "@platform/service"
import { AppAccountsRepo } from "../oauth/AppAccountsRepo.ts"
import { liveAppSignin } from "../oauth/appAccess.ts"
import { bearerChallenge } from "./bearerChallenge.ts"
import { AccessRemoved, MembershipInactive, TwoTokens, UserinfoAppDisabled } from "./errors.ts"
import { userInfo } from "./UserInfo.ts"
import { AccountsConfig } from "../config.ts"

const NOT_APP_AUDIENCES: ReadonlyArray<string> = [FIRST_PARTY_APP_ID, DEVELOPER_APP_ID]

export const UserinfoLive = compiledGroup(AccountsApi, "userinfo", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* AccessTokens
    const accounts = yield* AppAccountsRepo
    const { publicUrl } = yield* AccountsConfig

    /** The token of the header, or of the form body (`formToken`, POST only); never both. */
    const tokenOf = (authorization: string | undefined, formToken: string | undefined) => {
      if (authorization !== undefined && formToken !== undefined) {
        return Effect.fail(new TwoTokens({ message: "Send the access token once: in the Authorization header or in the form body." }))
      }
      if (formToken !== undefined) return Effect.succeed(formToken)
      if (authorization === undefined) {
        return Effect.fail(new Unauthenticated({ message: "Send the app access token as `Authorization: Bearer <token>`." }))
      }
      const token = bearerToken(authorization)
      return token === undefined
        ? Effect.fail(new InvalidAuthorization({ message: "Authorization must be `Bearer <access token>`." }))
        : Effect.succeed(token)
    }

    const answer = (request: HttpServerRequest.HttpServerRequest, formToken: string | undefined) =>
      Effect.gen(function*() {
        yield* noStore
        const authorization = request.headers["authorization"]
        yield* bearerChallenge(authorization !== undefined || formToken !== undefined)
        const token = yield* tokenOf(authorization, formToken)
        const at = yield* now
        const claims = yield* tokens.verifyAnyAudience(token, at).pipe(Effect.mapError((problem) =>
          problem === "identity_token"
            ? new IdentityTokenNotAccepted({ message: "Identity tokens are not accepted as bearer tokens." })
            : new InvalidToken({ message: problem === "expired" ? "The access token has expired." : "The access token is not valid." })
        ))
        const audiences = audiencesOf(claims)
        const appId = claims.client_id
        if (!audiences.includes(appId) || audiences.some((audience) => NOT_APP_AUDIENCES.includes(audience))) {
          return yield* new TokenWrongAudience({ message: "Userinfo takes access tokens issued to an app." })
        }
        const live = liveAppSignin(yield* accounts.findBySignin(claims.sid), { appId, accountUuid: claims.sub }, at)
        if (Either.isRight(live)) return userInfo(live.right, appId, live.right.scope, publicUrl)
        switch (live.left) {
          case "unknown":
            return yield* new TokenRevoked({ message: "This sign-in no longer exists." })
          case "revoked":
            return yield* new TokenRevoked({ message: "This sign-in was revoked." })
          case "expired":
            return yield* new SessionExpired({ message: "This sign-in has expired." })
          case "app_disabled":
            return yield* new UserinfoAppDisabled({ message: "This app is disabled." })
          case "access_removed":
            return yield* new AccessRemoved({ message: "The account removed this app's access." })
          case "membership_inactive":
            return yield* new MembershipInactive({ message: "The account's membership of this app is not active." })
        }
      })

    return handlers
      // Without a form token there is no second token to refuse.
      .handle("get", ({ request }) => answer(request, undefined).pipe(Effect.catchTag("TwoTokens", Effect.die)))
      // An empty access_token is no token (RFC 6750 §2.2 sends one or none).
      .handle("post", ({ payload, request }) => answer(request, payload.access_token || undefined))
  })).pipe(Layer.provide([AccessTokens.Default, AppAccountsRepo.Default]))
