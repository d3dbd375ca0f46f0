import { HttpApiMiddleware } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { AppOrAccountFailure, makeAppOrAccountAuthenticator } from "../auth/AppOrAccount.ts"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { AccessTokens } from "../oauth/AccessTokens.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"

/** Who looks an account up: an app by its Basic credentials, or a signed-in account. */
export type LookupCaller =
  | { readonly kind: "app"; readonly appId: string }
  | { readonly kind: "account"; readonly uuid: string }

export class CurrentLookupCaller extends Context.Tag("accounts/CurrentLookupCaller")<CurrentLookupCaller, LookupCaller>() {}

/**
 * The lookups' callers: an app's Basic credentials (checked through the 60-second credential cache),
 * else account authentication (a first-party or developer bearer token, or the account site's cookie).
 */
export class LookupCallerAuth extends HttpApiMiddleware.Tag<LookupCallerAuth>()("LookupCallerAuth", {
  failure: AppOrAccountFailure,
  provides: CurrentLookupCaller
}) {}

export const LookupCallerAuthLive = Layer.effect(
  LookupCallerAuth,
  Effect.map(makeAppOrAccountAuthenticator, (authenticate) =>
    Effect.map(
      authenticate("Send the app's Basic credentials, an account's bearer access token, or the account site's session cookie."),
      (caller): LookupCaller => caller.kind === "app" ? { kind: "app", appId: caller.appId } : { kind: "account", uuid: caller.uuid }
    ))
).pipe(Layer.provide([AccessTokens.Default, SigninsRepo.Default, AppCredentials.Default]))
