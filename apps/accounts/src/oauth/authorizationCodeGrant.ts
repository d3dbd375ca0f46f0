import { oauthError, pkceHolds, required } from "@platform/oauth"
import { Effect, Option } from "effect"
import { AuthorizationCodes } from "./AuthorizationCodes.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { now } from "@platform/service"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import { AppTokenIssuer } from "./AppTokenIssuer.ts"
import type { OAuthClient } from "./OAuthClient.ts"

const invalidGrant = (description: string) => Effect.fail(oauthError("invalid_grant", description))

/**
 * grant_type authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). The code is
 * spent first, in one statement, so every later check that fails has burnt it
 * too; a second use revokes the sign-in the first one started.
 */
export const authorizationCodeGrant = (client: OAuthClient, parameters: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    const codes = yield* AuthorizationCodes
    const appSignins = yield* AppSigninsRepo
    const signins = yield* SigninsRepo
    const issuer = yield* AppTokenIssuer
    const code = yield* required(parameters, "code")
    const redirectUri = yield* required(parameters, "redirect_uri")
    const verifier = parameters.get("code_verifier") || undefined
    const at = yield* now
    const redemption = yield* codes.redeem(code, at)
    switch (redemption._tag) {
      case "Unknown":
        return yield* invalidGrant("The authorization code is not valid.")
      case "Expired":
        return yield* invalidGrant("The authorization code has expired.")
      case "Reused": {
        const signinId = yield* appSignins.markCodeReused(redemption.code.code_hash, at)
        if (Option.isSome(signinId)) {
          yield* signins.revokeSignin(signinId.value, at, "authorization_code_reused")
        }
        return yield* invalidGrant("The authorization code was already used; the tokens issued from it are revoked.")
      }
      case "Redeemed":
        break
    }
    const redeemed = redemption.code
    if (redeemed.app_id !== client.clientId) return yield* invalidGrant("The authorization code was issued to another client.")
    if (redeemed.redirect_uri !== redirectUri) {
      return yield* invalidGrant("redirect_uri differs from the one of the authorization request.")
    }
    if (client.kind === "developer" && redeemed.code_challenge_method !== "S256") {
      return yield* invalidGrant("The client developer's codes need a PKCE S256 challenge.")
    }
    const challenge = redeemed.code_challenge === null || redeemed.code_challenge_method === null
      ? null
      : { value: redeemed.code_challenge, method: redeemed.code_challenge_method }
    if (!pkceHolds(challenge, verifier)) {
      return yield* invalidGrant(
        challenge === null
          ? "The code was issued without a PKCE challenge; send no code_verifier."
          : "code_verifier does not match the code challenge."
      )
    }
    const started = yield* appSignins.startFromCode(redeemed, at)
    if (started._tag === "Refused") {
      return yield* invalidGrant(
        started.reason === "access_removed"
          ? "The account's access to this app was removed."
          : "The account of this code can no longer sign in."
      )
    }
    return yield* issuer.respond({
      signin: started.signin,
      grant: { app_id: redeemed.app_id, scope: redeemed.scope, auth_time: redeemed.auth_time },
      refreshToken: started.refreshToken,
      account: started.account,
      nonce: redeemed.nonce,
      now: at
    })
  })
