import { HttpApiBuilder } from "@effect/platform"
import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import {
  AUTHORIZATION_CODE,
  DEVICE_CODE,
  JWT_BEARER,
  oauthError,
  oauthParameters,
  REFRESH_TOKEN,
  required
} from "@platform/oauth"
import { Effect, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccessTokens } from "./AccessTokens.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { deviceCodeGrant } from "../device/deviceCodeGrant.ts"
import { assertionSignIn } from "../silicons/assertions/assertionSignIn.ts"
import { appRefreshResponse } from "./appRefresh.ts"
import { authorizationCodeGrant } from "./authorizationCodeGrant.ts"
import { allowGrant } from "./clientGrants.ts"
import { introspect } from "./introspect.ts"
import { authenticateClient, type OAuthClient } from "./OAuthClient.ts"
import { TokenIssuer } from "./TokenIssuer.ts"
import { now } from "@platform/service"

export const OAuthLive = HttpApiBuilder.group(AccountsApi, "oauth", (handlers) =>
  Effect.gen(function*() {
    const signins = yield* SigninsRepo
    const issuer = yield* TokenIssuer
    const tokens = yield* AccessTokens

    const refresh = (client: OAuthClient, parameters: ReadonlyMap<string, string>) =>
      Effect.gen(function*() {
        const refreshToken = yield* required(parameters, "refresh_token")
        const at = yield* now
        const reading = client.kind === "first_party" ? "account" : "app"
        const rotated = yield* Effect.orDie(signins.rotate(refreshToken, client.clientId, at, reading))
        switch (rotated._tag) {
          case "Rotated":
            return client.kind === "first_party"
              ? yield* issuer.respond(rotated.signin, rotated.refreshToken, at, rotated.account)
              : yield* appRefreshResponse(rotated.signin, rotated.appView, rotated.refreshToken, at)
          case "WrongClient":
            return yield* Effect.fail(oauthError("invalid_grant", "The refresh token was issued to another client."))
          case "Reused":
            return yield* Effect.fail(
              oauthError("invalid_grant", "The refresh token was already used; its sign-in is now revoked.")
            )
          case "Unknown":
            return yield* Effect.fail(oauthError("invalid_grant", "The refresh token is not valid."))
          case "Revoked":
            return yield* Effect.fail(oauthError("invalid_grant", "The sign-in of this refresh token was revoked."))
          case "Expired":
            return yield* Effect.fail(oauthError("invalid_grant", "The sign-in of this refresh token has expired."))
        }
      })

    // RFC 7523 §3.1: an assertion that does not hold, or whose Silicon may not sign in, is invalid_grant.
    const jwtBearer = (parameters: ReadonlyMap<string, string>) =>
      Effect.flatMap(required(parameters, "assertion"), (assertion) =>
        assertionSignIn(assertion, parameters.get("client_label") ?? null).pipe(
          Effect.mapError((refused) => oauthError("invalid_grant", refused.message))
        ))

    return handlers
      .handleRaw("token", ({ request }) =>
        Effect.gen(function*() {
          // Token responses carry new secrets: never cached, and kept for replay 10 minutes only.
          yield* noStore
          yield* carriesNewSecret
          const parameters = yield* oauthParameters(request.headers["content-type"], yield* Effect.orDie(request.text))
          const grantType = yield* required(parameters, "grant_type")
          const client = yield* authenticateClient(request.headers["authorization"], parameters)
          yield* allowGrant(client, grantType)
          switch (grantType) {
            case AUTHORIZATION_CODE:
              return yield* authorizationCodeGrant(client, parameters)
            case REFRESH_TOKEN:
              return yield* refresh(client, parameters)
            case DEVICE_CODE:
              return yield* deviceCodeGrant(parameters)
            case JWT_BEARER:
              return yield* jwtBearer(parameters)
            default:
              return yield* Effect.fail(
                oauthError("unsupported_grant_type", `The grant ${grantType} is not available on this deployment yet.`)
              )
          }
        }), { uninterruptible: true })
      .handleRaw("revoke", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* oauthParameters(request.headers["content-type"], yield* Effect.orDie(request.text))
          const client = yield* authenticateClient(request.headers["authorization"], parameters)
          const token = yield* required(parameters, "token")
          const at = yield* now
          const byRefresh = yield* Effect.orDie(signins.findByRefreshToken(token))
          const signinId = Option.isSome(byRefresh)
            ? Option.some(byRefresh.value.id).pipe(Option.filter(() => byRefresh.value.client_id === client.clientId))
            : yield* tokens.verify(token, client.clientId, at).pipe(
              Effect.map((claims) => Option.some(claims.sid).pipe(Option.filter(() => claims.client_id === client.clientId))),
              Effect.orElseSucceed(() => Option.none<string>())
            )
          // RFC 7009 §2.2: an unknown, already revoked or another client's token is answered like a revoked one.
          if (Option.isSome(signinId)) yield* Effect.orDie(signins.revokeSignin(signinId.value, at, "revoked_by_client"))
        }), { uninterruptible: true })
      .handleRaw("introspect", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* oauthParameters(request.headers["content-type"], yield* Effect.orDie(request.text))
          const client = yield* authenticateClient(request.headers["authorization"], parameters)
          if (client.kind !== "app") {
            return yield* oauthError("invalid_client", "Introspection needs an app's credentials; public clients may not introspect.")
          }
          const token = yield* required(parameters, "token")
          return yield* introspect(client.clientId, token, yield* now)
        }))
  }))
