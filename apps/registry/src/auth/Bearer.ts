import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { Effect, Layer, Option, Schema } from "effect"
import { DeveloperTokenNotAllowed, registryError, Unauthenticated } from "../errors.ts"
import { Authenticator } from "./Authenticator.ts"
import { type Caller, CurrentCaller, MaybeCaller } from "./Caller.ts"

const failures = Schema.Union(registryError(Unauthenticated), registryError(AccountsUnavailable))
const failuresWithDeveloper = Schema.Union(
  registryError(Unauthenticated),
  registryError(DeveloperTokenNotAllowed),
  registryError(AccountsUnavailable)
)

/** Routes for a signed-in account: an account token, a developer-platform token or the development bearer. */
export class RegistryBearer extends HttpApiMiddleware.Tag<RegistryBearer>()("RegistryBearer", {
  failure: failures,
  provides: CurrentCaller
}) {}

/** Routes spec 2 keeps from developer-platform tokens (they answer 403 developer_token_not_allowed). */
export class AccountBearer extends HttpApiMiddleware.Tag<AccountBearer>()("AccountBearer", {
  failure: failuresWithDeveloper,
  provides: CurrentCaller
}) {}

/** Routes anyone may call; a token that is sent must hold. */
export class OptionalBearer extends HttpApiMiddleware.Tag<OptionalBearer>()("OptionalBearer", {
  failure: failures,
  provides: MaybeCaller
}) {}

/** Routes anyone may call, and that a developer-platform token may not (package resolution, install receipts). */
export class OptionalAccountBearer extends HttpApiMiddleware.Tag<OptionalAccountBearer>()("OptionalAccountBearer", {
  failure: failuresWithDeveloper,
  provides: MaybeCaller
}) {}

const signInNeeded = new Unauthenticated({
  message: "This route needs a signed-in account.",
  hint: "Send `Authorization: Bearer <access token>` from accounts for the registry's audience."
})

const noDeveloperTokens = (caller: Caller) =>
  caller.credential === "developer"
    ? Effect.fail(
      new DeveloperTokenNotAllowed({
        message: "A developer-platform token cannot be used for this operation.",
        hint: "Use an account token for the registry's audience."
      })
    )
    : Effect.succeed(caller)

/** The four middlewares over one Authenticator. */
export const BearersLive = Layer.unwrapEffect(Effect.map(Authenticator, (authenticator) => {
  const callerOfRequest = Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request) => authenticator.authenticate(request.headers["authorization"])
  )
  const required = Effect.flatMap(callerOfRequest, Option.match({ onNone: () => Effect.fail(signInNeeded), onSome: Effect.succeed }))
  return Layer.mergeAll(
    Layer.succeed(RegistryBearer, required),
    Layer.succeed(AccountBearer, Effect.flatMap(required, noDeveloperTokens)),
    Layer.succeed(OptionalBearer, callerOfRequest),
    Layer.succeed(
      OptionalAccountBearer,
      Effect.tap(callerOfRequest, Option.match({ onNone: () => Effect.void, onSome: noDeveloperTokens }))
    )
  )
}))
