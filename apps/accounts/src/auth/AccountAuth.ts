import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { bearerToken } from "@platform/auth"
import { sha256Hex } from "@platform/crypto"
import { exactCache } from "@platform/database"
import { cookieName, errorResponse, OriginNotAllowed, requireOrigin } from "@platform/http"
import { Effect, Layer, Option, Schema } from "effect"
import { AccountsConfig } from "../config.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { CurrentAccount } from "./CurrentAccount.ts"
import { accountAudienceAccepted, type DeveloperRoute, developerTokenRoute } from "./developerRoutes.ts"
import {
  AccountAuthRequired,
  IdentityTokenNotAccepted,
  InvalidAuthorization,
  InvalidToken,
  SessionExpired,
  TokenRevoked,
  TokenWrongAudience
} from "./errors.ts"
import type { SigninRow } from "../oauth/Signin.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { SIGNIN_VIEW_CACHE_CAPACITY, SIGNIN_VIEW_CHANNEL } from "../oauth/signinViewChannel.ts"
import { now } from "@platform/service"

export const SESSION_COOKIE = "sa_session"
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"])

export const AccountAuthFailure = Schema.Union(
  errorResponse(AccountAuthRequired),
  errorResponse(InvalidAuthorization),
  errorResponse(InvalidToken),
  errorResponse(TokenWrongAudience),
  errorResponse(IdentityTokenNotAccepted),
  errorResponse(TokenRevoked),
  errorResponse(SessionExpired),
  errorResponse(OriginNotAllowed)
)

/**
 * Account authentication, used by every account route: a bearer access
 * token with the first-party audience, or the account site's session cookie
 * (whose state-changing requests must come from our own origin).
 */
export class AccountAuth extends HttpApiMiddleware.Tag<AccountAuth>()("AccountAuth", {
  failure: AccountAuthFailure,
  provides: CurrentAccount
}) {}

type AuthError = typeof AccountAuthFailure.Type

/** What says whether a sign-in may act: all the bearer path keeps of it (a refresh's `last_used_at` is not announced). */
type SigninLiveness = Pick<SigninRow, "id" | "account_uuid" | "client_id" | "revoked_at" | "expires_at">

const livenessOf = ({ account_uuid, client_id, expires_at, id, revoked_at }: SigninRow): SigninLiveness => ({
  id,
  account_uuid,
  client_id,
  revoked_at,
  expires_at
})

const live = <S extends SigninLiveness>(signin: S, now: Date): Effect.Effect<S, TokenRevoked | SessionExpired> =>
  signin.revoked_at !== null
    ? Effect.fail(new TokenRevoked({ message: "This sign-in was revoked; sign in again." }))
    : signin.expires_at.getTime() <= now.getTime()
    ? Effect.fail(new SessionExpired({ message: "This sign-in has expired; sign in again." }))
    : Effect.succeed(signin)

const cookieValue = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined
  for (const part of header.split(";")) {
    const index = part.indexOf("=")
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim()
  }
  return undefined
}

/**
 * Authenticates the current request as an account: the bearer access token
 * when `Authorization` is sent (judged by it alone), else the session cookie.
 */
export const makeAccountAuthenticator = Effect.gen(function*() {
  const config = yield* AccountsConfig
  const tokens = yield* AccessTokens
  const signins = yield* SigninsRepo
  // Every account route asks for its bearer's sign-in: from memory, exactly (see exactCache).
  const signinOf = yield* exactCache({
    channel: SIGNIN_VIEW_CHANNEL,
    capacity: SIGNIN_VIEW_CACHE_CAPACITY,
    // New sign-ins are not announced (SigninViewChangesMigration): an absent one is read again.
    keep: Option.isSome,
    load: (signinId: string) => Effect.map(signins.find(signinId), Option.map(livenessOf))
  })
  const sessionCookie = cookieName({ production: config.environment === "production" }, SESSION_COOKIE)

  const fromBearer = (authorization: string, now: Date, developerRoute: DeveloperRoute) =>
    Effect.gen(function*() {
      const token = bearerToken(authorization)
      if (token === undefined) {
        return yield* Effect.fail(
          new InvalidAuthorization({ message: "Authorization must be `Bearer <access token>`." })
        )
      }
      const claims = yield* tokens.verifyAnyAudience(token, now).pipe(
        Effect.filterOrFail((claims) => accountAudienceAccepted(claims, developerRoute), () => "wrong_audience" as const),
        Effect.mapError((problem): AuthError => {
          switch (problem) {
            case "expired":
              return new InvalidToken({ message: "The access token has expired; refresh it." })
            case "wrong_audience":
              return new TokenWrongAudience({
                message: "This token was issued to an app; account routes take first-party tokens only."
              })
            case "identity_token":
              return new IdentityTokenNotAccepted({ message: "Identity tokens are not accepted as bearer tokens." })
            case "invalid":
              return new InvalidToken({ message: "The access token is not valid." })
          }
        })
      )
      const signin = yield* Effect.flatMap(signinOf(claims.sid), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new TokenRevoked({ message: "This sign-in no longer exists." })),
          onSome: (signin) => live(signin, now)
        }))
      return { uuid: signin.account_uuid, signinId: signin.id, clientId: claims.client_id, via: "bearer" as const }
    })

  const fromCookie = (value: string, now: Date) =>
    Effect.gen(function*() {
      const found = yield* signins.findBySessionCookie(sha256Hex(value))
      const signin = yield* Option.match(found, {
        onNone: () => Effect.fail(new SessionExpired({ message: "This browser session has ended; sign in again." })),
        onSome: (signin) => live(signin, now)
      })
      return { uuid: signin.account_uuid, signinId: signin.id, clientId: signin.client_id, via: "cookie" as const }
    })

  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const at = yield* now
    const authorization = request.headers["authorization"]
    if (authorization !== undefined) {
      return yield* fromBearer(authorization, at, developerTokenRoute(request.method, request.url))
    }
    const cookie = cookieValue(request.headers["cookie"], sessionCookie)
    if (cookie !== undefined && cookie !== "") {
      // Bearer requests are exempt: a browser never attaches them on its own.
      if (STATE_CHANGING.has(request.method)) yield* requireOrigin([config.publicUrl])
      return yield* fromCookie(cookie, at)
    }
    return yield* Effect.fail(
      new AccountAuthRequired({
        message: "Sign in first: send a bearer access token or the account site's session cookie."
      })
    )
  })
})

export const AccountAuthLive = Layer.effect(AccountAuth, makeAccountAuthenticator).pipe(
  Layer.provide([
    AccessTokens.Default,
    SigninsRepo.Default
  ])
)
