import { HttpServerRequest } from "@effect/platform"
import { parseBasic } from "@platform/auth"
import { errorResponse } from "@platform/http"
import { Effect, Schema } from "effect"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { AppDisabled, InvalidAppCredentials } from "../apps/errors.ts"
import { AccountAuthFailure, makeAccountAuthenticator } from "./AccountAuth.ts"
import { Unauthenticated } from "./errors.ts"

/** An app by its Basic credentials (with the secret it sent), or an authenticated account and its sign-in. */
export type AppOrAccount =
  | { readonly kind: "app"; readonly appId: string; readonly secret: string }
  | { readonly kind: "account"; readonly uuid: string; readonly signinId: string }

export const AppOrAccountFailure = Schema.Union(
  errorResponse(Unauthenticated),
  AccountAuthFailure,
  errorResponse(InvalidAppCredentials),
  errorResponse(AppDisabled)
)

/**
 * "App or account credentials" (spec 1): the app's Basic credentials, checked through the 60-second
 * credential cache, else account authentication (a bearer access token or the account site's session
 * cookie). A request with neither is Unauthenticated with `nothingSent` as its message.
 */
export const makeAppOrAccountAuthenticator = Effect.gen(function*() {
  const authenticateAccount = yield* makeAccountAuthenticator
  const credentials = yield* AppCredentials
  return (nothingSent: string) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const authorization = request.headers["authorization"]
      if (authorization === undefined && request.headers["cookie"] === undefined) {
        return yield* new Unauthenticated({ message: nothingSent })
      }
      if (authorization !== undefined && /^basic /i.test(authorization.trim())) {
        const basic = parseBasic(authorization)
        if (basic === undefined) {
          return yield* new InvalidAppCredentials({ message: "Authorization must be `Basic base64(app_id:app_secret)`." })
        }
        const appId = yield* credentials.verify(basic.clientId, basic.secret)
        return { kind: "app", appId, secret: basic.secret } satisfies AppOrAccount
      }
      const account = yield* authenticateAccount
      return { kind: "account", uuid: account.uuid, signinId: account.signinId } satisfies AppOrAccount
    })
})
