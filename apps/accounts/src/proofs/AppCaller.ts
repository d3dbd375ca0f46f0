import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { parseBasic } from "@platform/auth"
import { errorResponse } from "@platform/http"
import { Context, Effect, Layer, Schema } from "effect"
import { AppCredentials, type CheckedApp } from "../apps/AppCredentials.ts"
import { AppCredentialsRequired, AppDisabled, InvalidAppCredentials } from "../apps/errors.ts"

/** The app a request authenticated as (its Basic credentials), and until when that check is trusted. */
export class CurrentApp extends Context.Tag("accounts/CurrentApp")<CurrentApp, CheckedApp>() {}

export const AppCallerFailure = Schema.Union(
  errorResponse(AppCredentialsRequired),
  errorResponse(InvalidAppCredentials),
  errorResponse(AppDisabled)
)

/** "app" (spec 1, Authentication): Authorization Basic base64(app_id:app_secret), nothing else. */
export class AppCaller extends HttpApiMiddleware.Tag<AppCaller>()("AppCaller", {
  failure: AppCallerFailure,
  provides: CurrentApp
}) {}

export const AppCallerLive = Layer.effect(
  AppCaller,
  Effect.gen(function*() {
    const credentials = yield* AppCredentials
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const authorization = request.headers["authorization"]
      const basic = authorization === undefined ? undefined : parseBasic(authorization)
      if (basic === undefined) {
        return yield* new AppCredentialsRequired({ message: "Send the app's credentials: Authorization Basic base64(app_id:app_secret)." })
      }
      return yield* credentials.check(basic.clientId, basic.secret)
    })
  })
).pipe(Layer.provide(AppCredentials.Default))
