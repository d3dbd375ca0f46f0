import { oauthError, pkceHolds, required } from "@platform/oauth"
import { Effect, Option } from "effect"
import type { AuthorizationCodeRow } from "./AuthorizationCodes.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { now } from "@platform/service"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import { AppTokenIssuer } from "./AppTokenIssuer.ts"
import type { OAuthClient } from "./OAuthClient.ts"

const invalidGrant = (description: string) => Effect.fail(oauthError("invalid_grant", description))

/** Why a spent code does not fit the request, in the order the checks are made; undefined when it fits. */
const mismatchOf = (
  client: OAuthClient,
  code: AuthorizationCodeRow,
  redirectUri: string,
  verifier: string | undefined
): string | undefined => {
  if (code.app_id !== client.clientId) return "The authorization code was issued to another client."
  if (code.redirect_uri !== redirectUri) return "redirect_uri differs from the one of the authorization request."
  if (client.kind === "developer" && code.code_challenge_method !== "S256") {
    return "The client developer's codes need a PKCE S256 challenge."
  }
  const challenge = code.code_challenge === null || code.code_challenge_method === null
    ? null
    : { value: code.code_challenge, method: code.code_challenge_method }
  if (pkceHolds(challenge, verifier)) return undefined
  return challenge === null
    ? "The code was issued without a PKCE challenge; send no code_verifier."
    : "code_verifier does not match the code challenge."
}

/**
 * grant_type authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). One statement spends the code
 * and, when the request fits it, starts the sign-in (AppSigninsRepo.redeemCode), so a request that
 * does not fit has burnt the code too; a second use revokes the sign-in the first one started.
 */
export const authorizationCodeGrant = (client: OAuthClient, parameters: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    const appSignins = yield* AppSigninsRepo
    const signins = yield* SigninsRepo
    const issuer = yield* AppTokenIssuer
    const code = yield* required(parameters, "code")
    const redirectUri = yield* required(parameters, "redirect_uri")
    const verifier = parameters.get("code_verifier") || undefined
    const at = yield* now
    const redemption = yield* appSignins.redeemCode({
      code,
      clientId: client.clientId,
      redirectUri,
      verifier,
      s256Only: client.kind === "developer"
    }, at)
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
      case "Mismatched": {
        const mismatch = mismatchOf(client, redemption.code, redirectUri, verifier)
        if (mismatch === undefined) return yield* Effect.dieMessage("redeemCode refused a code these checks accept")
        return yield* invalidGrant(mismatch)
      }
      case "Refused":
        return yield* invalidGrant(
          redemption.reason === "access_removed"
            ? "The account's access to this app was removed."
            : "The account of this code can no longer sign in."
        )
      case "Started": {
        const { code: redeemed, started } = redemption
        return yield* issuer.respond({
          signin: started.signin,
          grant: { app_id: redeemed.app_id, scope: redeemed.scope, auth_time: redeemed.auth_time },
          refreshToken: started.refreshToken,
          account: started.account,
          nonce: redeemed.nonce,
          now: at
        })
      }
    }
  })
