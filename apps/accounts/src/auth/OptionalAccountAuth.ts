import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { AccountAuthFailure, makeAccountAuthenticator } from "./AccountAuth.ts"
import type { AuthenticatedAccount } from "./CurrentAccount.ts"

/** The signed-in account of a route that also takes anonymous callers, if any. */
export class MaybeAccount extends Context.Tag("accounts/MaybeAccount")<MaybeAccount, Option.Option<AuthenticatedAccount>>() {}

/**
 * Account authentication for routes open to anonymous callers (spec 1: "account or anonymous").
 * No credentials: anonymous. A bearer token is judged as on every account route (a bad one is
 * 401: the caller meant to be someone). A session cookie needs our Origin on a state change, as
 * everywhere; a cookie naming no live session is anonymous, since a browser sends it on its own.
 */
export class OptionalAccountAuth extends HttpApiMiddleware.Tag<OptionalAccountAuth>()("OptionalAccountAuth", {
  failure: AccountAuthFailure,
  provides: MaybeAccount
}) {}

export const OptionalAccountAuthLive = Layer.effect(
  OptionalAccountAuth,
  Effect.map(makeAccountAuthenticator, (authenticate) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const bearer = request.headers["authorization"] !== undefined
      if (!bearer && request.headers["cookie"] === undefined) return Option.none()
      return yield* authenticate.pipe(
        Effect.map(Option.some),
        Effect.catchIf(
          (error) => !bearer && (error._tag === "SessionExpired" || error._tag === "TokenRevoked" || error._tag === "AccountAuthRequired"),
          () => Effect.succeed(Option.none<AuthenticatedAccount>())
        )
      )
    }))
).pipe(Layer.provide([AccessTokens.Default, SigninsRepo.Default]))
