import { HttpApiMiddleware } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import { errorResponse } from "@platform/http"
import { Context, Effect, Layer, Schema } from "effect"
import { AppOrAccountFailure, makeAppOrAccountAuthenticator } from "../auth/AppOrAccount.ts"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { webhookReceiver } from "../events/webhookDeliveries.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import { AccountDeleted } from "../silicons/errors.ts"
import { CallerCheck } from "./CallerCheck.ts"

/** Who opened a stream, with what a recheck needs: the app and its secret's digest, or the account's sign-in. */
export type StreamCaller =
  | { readonly kind: "app"; readonly appId: string; readonly secretDigest: string }
  | { readonly kind: "account"; readonly uuid: string; readonly signinId: string }

export class CurrentStreamCaller extends Context.Tag("accounts/CurrentStreamCaller")<CurrentStreamCaller, StreamCaller>() {}

/** The feed rows a caller reads: an app's `app:<app_id>`, an account's `account:<uuid>`. */
export const receiverOf = (caller: StreamCaller): string =>
  caller.kind === "app"
    ? webhookReceiver({ kind: "app", appId: caller.appId })
    : webhookReceiver({ kind: "account", uuid: caller.uuid })

export const StreamCallerFailure = Schema.Union(AppOrAccountFailure, errorResponse(AccountDeleted))

/**
 * "App or account credentials" (spec 1, Event stream): the app's Basic credentials, or account
 * authentication (a first-party bearer access token, or the account site's session cookie).
 */
export class StreamCallerAuth extends HttpApiMiddleware.Tag<StreamCallerAuth>()("StreamCallerAuth", {
  failure: StreamCallerFailure,
  provides: CurrentStreamCaller
}) {}

export const StreamCallerAuthLive = Layer.effect(
  StreamCallerAuth,
  Effect.gen(function*() {
    const authenticate = yield* makeAppOrAccountAuthenticator
    const check = yield* CallerCheck
    return Effect.gen(function*() {
      const found = yield* authenticate(
        "Send the app's Basic credentials, a first-party bearer access token, or the account site's session cookie."
      )
      if (found.kind === "app") return { kind: "app" as const, appId: found.appId, secretDigest: sha256Hex(found.secret) }
      const caller: StreamCaller = found
      // A sign-in may outlive its account's deletion: the recheck's rule applies from the start.
      const refusal = yield* check.stillGood(caller)
      if (refusal === "account_deleted") return yield* new AccountDeleted({ message: "This account was deleted." })
      return caller
    })
  })
).pipe(Layer.provide([AccessTokens.Default, SigninsRepo.Default, AppCredentials.Default, CallerCheck.Default]))
