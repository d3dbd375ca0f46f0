import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { parseBasic } from "@platform/auth"
import { errorResponse } from "@platform/http"
import { Context, Effect, Layer, Schema } from "effect"
import { AccountAuthFailure, makeAccountAuthenticator } from "../auth/AccountAuth.ts"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { AppDisabled, InvalidAppCredentials } from "../apps/errors.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { Unauthenticated } from "../userinfo/errors.ts"

/** Who looks an account up: an app by its Basic credentials, or a signed-in account. */
export type LookupCaller =
  | { readonly kind: "app"; readonly appId: string }
  | { readonly kind: "account"; readonly uuid: string }

export class CurrentLookupCaller extends Context.Tag("accounts/CurrentLookupCaller")<CurrentLookupCaller, LookupCaller>() {}

export const LookupCallerFailure = Schema.Union(
  errorResponse(Unauthenticated),
  AccountAuthFailure,
  errorResponse(InvalidAppCredentials),
  errorResponse(AppDisabled)
)

/**
 * The lookups' callers: an app's Basic credentials (checked through the 60-second credential cache),
 * else account authentication (a first-party or developer bearer token, or the account site's cookie).
 */
export class LookupCallerAuth extends HttpApiMiddleware.Tag<LookupCallerAuth>()("LookupCallerAuth", {
  failure: LookupCallerFailure,
  provides: CurrentLookupCaller
}) {}

export const LookupCallerAuthLive = Layer.effect(
  LookupCallerAuth,
  Effect.gen(function*() {
    const authenticateAccount = yield* makeAccountAuthenticator
    const credentials = yield* AppCredentials
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const authorization = request.headers["authorization"]
      if (authorization === undefined && request.headers["cookie"] === undefined) {
        return yield* new Unauthenticated({
          message: "Send the app's Basic credentials, an account's bearer access token, or the account site's session cookie."
        })
      }
      if (authorization !== undefined && /^basic /i.test(authorization.trim())) {
        const basic = parseBasic(authorization)
        if (basic === undefined) {
          return yield* new InvalidAppCredentials({ message: "Authorization must be `Basic base64(app_id:app_secret)`." })
        }
        return { kind: "app" as const, appId: yield* credentials.verify(basic.clientId, basic.secret) }
      }
      const account = yield* authenticateAccount
      return { kind: "account" as const, uuid: account.uuid }
    })
  })
).pipe(Layer.provide([AccessTokens.Default, SigninsRepo.Default, AppCredentials.Default]))
