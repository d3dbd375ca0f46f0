import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { parseBasic } from "@platform/auth"
import { errorResponse } from "@platform/http"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { AccountAuthFailure, makeAccountAuthenticator } from "../auth/AccountAuth.ts"
import type { AuthenticatedAccount } from "../auth/CurrentAccount.ts"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AppDisabled, AppMismatch, InvalidAppCredentials, NotAppOwner, UnknownApp } from "../apps/errors.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"

/** Who manages the app of `/v1/apps/{app_id}/…`: the app itself (Basic credentials) or one of its authors. */
export type AppManager =
  | { readonly kind: "app"; readonly appId: string }
  | { readonly kind: "author"; readonly appId: string; readonly account: AuthenticatedAccount }

export class CurrentAppManager extends Context.Tag("accounts/CurrentAppManager")<CurrentAppManager, AppManager>() {}

export const AppOrAuthorFailure = Schema.Union(
  AccountAuthFailure,
  errorResponse(InvalidAppCredentials),
  errorResponse(AppDisabled),
  errorResponse(AppMismatch),
  errorResponse(NotAppOwner),
  errorResponse(UnknownApp)
)

/**
 * "App or author" (spec 1, App management): the app's Basic credentials, or
 * the account auth of one of its authors (owner or co-author). A disabled
 * app's own credentials get 403 app_disabled; its authors still manage it.
 */
export class AppOrAuthor extends HttpApiMiddleware.Tag<AppOrAuthor>()("AppOrAuthor", {
  failure: AppOrAuthorFailure,
  provides: CurrentAppManager
}) {}

const APP_PATH = /^\/v1\/apps\/([^/]+)/

export const AppOrAuthorLive = Layer.effect(
  AppOrAuthor,
  Effect.gen(function*() {
    const authenticate = yield* makeAccountAuthenticator
    const credentials = yield* AppCredentials
    const apps = yield* AppsRepo
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const appId = decodeURIComponent(APP_PATH.exec(request.url.split("?")[0]!)?.[1] ?? "")
      const authorization = request.headers["authorization"]
      const basic = authorization === undefined ? undefined : parseBasic(authorization)
      if (basic !== undefined) {
        yield* credentials.verify(basic.clientId, basic.secret)
        if (basic.clientId !== appId) {
          return yield* new AppMismatch({ message: "These are another app's credentials." })
        }
        return { kind: "app" as const, appId }
      }
      const account = yield* authenticate
      const app = yield* apps.credentialsOf(appId)
      if (Option.isNone(app)) return yield* new UnknownApp({ message: `No app has the id ${JSON.stringify(appId)}.` })
      if (!(yield* apps.isAuthor(appId, account.uuid))) {
        return yield* new NotAppOwner({ message: "Only the app's owner and co-authors manage it." })
      }
      return { kind: "author" as const, appId, account }
    })
  })
).pipe(Layer.provide([AccessTokens.Default, SigninsRepo.Default, AppsRepo.Default, AppCredentials.Default]))
