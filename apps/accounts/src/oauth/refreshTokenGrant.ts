import { oauthError, required } from "@platform/oauth"
import { Effect } from "effect"
import { now } from "@platform/service"
import { appRefreshResponse } from "./appRefresh.ts"
import type { OAuthClient } from "./OAuthClient.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { TokenIssuer } from "./TokenIssuer.ts"

/**
 * grant_type refresh_token (RFC 6749 §6): the refresh token rotates in one statement;
 * the first-party client gets its Token response, an app the one of its own grant.
 */
export const refreshTokenGrant = (client: OAuthClient, parameters: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    const signins = yield* SigninsRepo
    const issuer = yield* TokenIssuer
    const refreshToken = yield* required(parameters, "refresh_token")
    const at = yield* now
    const reading = client.kind === "first_party" ? "account" : "app"
    const rotated = yield* signins.rotate(refreshToken, client.clientId, at, reading)
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
