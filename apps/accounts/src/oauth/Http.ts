import { noStore } from "@platform/http"
import { oauthError, requestParameters, required } from "@platform/oauth"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccessTokens } from "./AccessTokens.ts"
import { answerTokenRequest, authenticate, noStoreNewSecret } from "./endpointSteps.ts"
import { introspect } from "./introspect.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { TokenGrants } from "./TokenGrants.ts"
import { compiledGroup, now } from "@platform/service"
import { AppAccountsRepo } from "./AppAccountsRepo.ts"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import { AppCredentials } from "../apps/AppCredentials.ts"

export const OAuthLive = compiledGroup(AccountsApi, "oauth", (handlers) =>
  Effect.gen(function*() {
    const signins = yield* SigninsRepo
    const tokens = yield* AccessTokens
    const grants = yield* TokenGrants

    return handlers
      // Each grant_type is a plug-in of TokenGrants.
      .handleRaw("token", ({ request }) =>
        Effect.gen(function*() {
          yield* noStoreNewSecret
          const parameters = yield* requestParameters(request)
          return yield* answerTokenRequest(grants, request.headers["authorization"], parameters)
        }), { uninterruptible: true })
      .handleRaw("revoke", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* requestParameters(request)
          const client = yield* authenticate(request, parameters)
          const token = yield* required(parameters, "token")
          const at = yield* now
          const byRefresh = yield* signins.findByRefreshToken(token)
          const signinId = Option.isSome(byRefresh)
            ? Option.some(byRefresh.value.id).pipe(Option.filter(() => byRefresh.value.client_id === client.clientId))
            : yield* tokens.verify(token, client.clientId, at).pipe(
              Effect.map((claims) => Option.some(claims.sid).pipe(Option.filter(() => claims.client_id === client.clientId))),
              Effect.orElseSucceed(() => Option.none<string>())
            )
          // RFC 7009 §2.2: an unknown, already revoked or another client's token is answered like a revoked one.
          if (Option.isSome(signinId)) yield* signins.revokeSignin(signinId.value, at, "revoked_by_client")
        }), { uninterruptible: true })
      .handleRaw("introspect", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* requestParameters(request)
          const client = yield* authenticate(request, parameters)
          if (client.kind !== "app") {
            return yield* oauthError("invalid_client", "Introspection needs an app's credentials; public clients may not introspect.")
          }
          const token = yield* required(parameters, "token")
          return yield* introspect(client.clientId, token, yield* now)
        }))
  })).pipe(
  Layer.provide([
    AccessTokens.Default,
    AppAccountsRepo.Default,
    SigninsRepo.Default,
    AppSigninsRepo.Default,
    AppCredentials.Default
  ])
)
