import { AUTHORIZATION_CODE, DEVICE_CODE, JWT_BEARER, type OAuthError, oauthError, REFRESH_TOKEN, TOKEN_EXCHANGE } from "@platform/oauth"
import { Effect } from "effect"
import type { OAuthClient } from "./OAuthClient.ts"

export const SHORT_LIVED_TOKEN = "urn:accounts:params:oauth:grant-type:short-lived-token"

const KNOWN = new Set([AUTHORIZATION_CODE, REFRESH_TOKEN, DEVICE_CODE, JWT_BEARER, TOKEN_EXCHANGE, SHORT_LIVED_TOKEN])

/** Which grants each kind of client may use (spec 1, POST /v1/oauth/token: first-party and client developer rows). */
const ALLOWED: Record<OAuthClient["kind"], ReadonlySet<string>> = {
  first_party: new Set([REFRESH_TOKEN, DEVICE_CODE, JWT_BEARER, TOKEN_EXCHANGE]),
  developer: new Set([AUTHORIZATION_CODE, REFRESH_TOKEN]),
  app: new Set([AUTHORIZATION_CODE, REFRESH_TOKEN, SHORT_LIVED_TOKEN, TOKEN_EXCHANGE])
}

/** An unknown grant is unsupported_grant_type; a known one this client may not use is unauthorized_client. */
export const allowGrant = (client: OAuthClient, grantType: string): Effect.Effect<void, OAuthError> =>
  !KNOWN.has(grantType)
    ? Effect.fail(oauthError("unsupported_grant_type", `Unknown grant_type ${grantType}.`))
    : ALLOWED[client.kind].has(grantType)
    ? Effect.void
    : Effect.fail(oauthError("unauthorized_client", `The client ${client.clientId} may not use the grant ${grantType}.`))
