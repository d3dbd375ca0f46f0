import { HttpApiBuilder } from "@effect/platform"
import { noStore, oauthError } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccessTokens, FIRST_PARTY_CLIENT_ID } from "../auth/AccessTokens.ts"
import { SigninsRepo } from "../auth/SigninsRepo.ts"
import { deviceCodeGrant } from "../device/deviceCodeGrant.ts"
import { assertionSignIn } from "../silicons/assertions/assertionSignIn.ts"
import { requireFirstPartyClient } from "./firstPartyClient.ts"
import { oauthParameters, required } from "./OAuthParameters.ts"
import { TokenIssuer } from "./TokenIssuer.ts"
import { now } from "../now.ts"


export const OAuthLive = HttpApiBuilder.group(AccountsApi, "oauth", (handlers) =>
  Effect.gen(function*() {
    const signins = yield* SigninsRepo
    const issuer = yield* TokenIssuer
    const tokens = yield* AccessTokens

    const refresh = (parameters: ReadonlyMap<string, string>) =>
      Effect.gen(function*() {
        const refreshToken = yield* required(parameters, "refresh_token")
        const at = yield* now
        const rotated = yield* Effect.orDie(signins.rotate(refreshToken, at))
        switch (rotated._tag) {
          case "Rotated":
            return yield* issuer.respond(rotated.signin, rotated.refreshToken, at)
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
          yield* requireFirstPartyClient(request.headers["authorization"], parameters)
          switch (grantType) {
            case "refresh_token":
              return yield* refresh(parameters)
            case "urn:ietf:params:oauth:grant-type:device_code":
              return yield* deviceCodeGrant(parameters)
            case "urn:ietf:params:oauth:grant-type:jwt-bearer":
              return yield* jwtBearer(parameters)
            case "authorization_code":
            case "urn:ietf:params:oauth:grant-type:token-exchange":
            case "urn:accounts:params:oauth:grant-type:short-lived-token":
              return yield* Effect.fail(
                oauthError("unsupported_grant_type", `The grant ${grantType} is not available on this deployment yet.`)
              )
            default:
              return yield* Effect.fail(oauthError("unsupported_grant_type", `Unknown grant_type ${grantType}.`))
          }
        }), { uninterruptible: true })
      .handleRaw("revoke", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* oauthParameters(request.headers["content-type"], yield* Effect.orDie(request.text))
          yield* requireFirstPartyClient(request.headers["authorization"], parameters)
          const token = yield* required(parameters, "token")
          const at = yield* now
          const byRefresh = yield* Effect.orDie(signins.findByRefreshToken(token))
          const signinId = Option.isSome(byRefresh)
            ? Option.some(byRefresh.value.id)
            : yield* tokens.verify(token, FIRST_PARTY_CLIENT_ID, at).pipe(
              Effect.map((claims) => Option.some(claims.sid)),
              Effect.orElseSucceed(() => Option.none<string>())
            )
          // RFC 7009 §2.2: an unknown or already revoked token is answered like a revoked one.
          if (Option.isSome(signinId)) yield* Effect.orDie(signins.revokeSignin(signinId.value, at, "revoked_by_client"))
        }), { uninterruptible: true })
  }))
