import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { oauthBody, OAuthErrorResponses, OAuthRateLimitedResponse } from "@platform/oauth"
import { Schema } from "effect"
import { AppTokenResponse } from "./AppTokenResponse.ts"
import { IntrospectionResponse } from "./Introspection.ts"
import { IntrospectionRequest, RevocationRequest, TokenRequests } from "./OAuthRequests.ts"
import { TokenResponse } from "./TokenResponse.ts"

export class OAuthApi extends HttpApiGroup.make("oauth")
  .add(
    HttpApiEndpoint.post("token", "/v1/oauth/token")
      // OAuth endpoints take a form body or a JSON object of strings (spec 1, General request rules).
      .setPayload(oauthBody(TokenRequests))
      .addSuccess(AppTokenResponse)
      .addSuccess(TokenResponse)
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .addError(OAuthRateLimitedResponse)
      .annotate(
        OpenApi.Description,
        "Token endpoint (RFC 6749). Apps authenticate with HTTP Basic app_id:app_secret or client_id and client_secret in the body (never both: invalid_request; a body client_id other than Basic's: invalid_client) and use authorization_code (code, redirect_uri identical to the authorize request's, code_verifier of 43 to 128 characters when the code has a PKCE challenge and only then; a reused code revokes the tokens issued from it) and refresh_token for their own tokens; they get the AppTokenResponse, with id_token when openid was granted (signed as the app's id_token_signed_response_alg: EdDSA with at_hash over SHA-512, or RS256 with at_hash over SHA-256). The client developer (client_id `developer`, no secret) may use authorization_code with PKCE S256 only and refresh_token. First-party grants: refresh_token, urn:ietf:params:oauth:grant-type:device_code (RFC 8628) and urn:ietf:params:oauth:grant-type:jwt-bearer (RFC 7523: a Silicon's key sign-in assertion in `assertion`, optional `client_label`) with client_id `accounts` (the first-party public client, no secret). The assertion is a JWT signed with EdDSA by one of the Silicon's live keys (header kid optional), iss and sub both the Silicon's si: id or uuid, aud this endpoint's URL, exp at most 300 seconds after iat (or from now without iat), iat not in the future, and a jti of 1 to 200 characters used once; any failure is invalid_grant. A token from a trusted outside issuer (a federation of the Silicon, see /v1/silicons/{id}/federations) signs the Silicon in through urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693: `subject_token`, `subject_token_type` urn:ietf:params:oauth:token-type:jwt, id_token or access_token; the client may be omitted) or as the jwt-bearer `assertion` (its iss is the issuer's https URL): at most 16 KB, signed by a key of the issuer's JWKS, issuer, audience, expiry (30 seconds of skew) and every condition of a trust matching; optional `silicon` (si: id or uuid) names the Silicon when several trust the token. That sign-in lasts until the outside token expires, at least 30 minutes and at most 12 hours; 60 per minute per IP (429 rate_limited). Refresh tokens rotate; a used one revokes its sign-in. A retry that carries the same Idempotency-Key as the original refresh gets the same answer again."
      )
  )
  .add(
    HttpApiEndpoint.post("revoke", "/v1/oauth/revoke")
      .setPayload(oauthBody([RevocationRequest]))
      .addSuccess(Schema.Void, { status: 200 })
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .annotate(
        OpenApi.Description,
        "Token revocation (RFC 7009), client authenticated as at the token endpoint: a client's own refresh or access token ends its whole sign-in. Unknown tokens, and another client's, answer 200 and are left alone."
      )
  )
  .add(
    HttpApiEndpoint.post("introspect", "/v1/oauth/introspect")
      .setPayload(oauthBody([IntrospectionRequest]))
      .addSuccess(IntrospectionResponse)
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .annotate(
        OpenApi.Description,
        "Token introspection (RFC 7662) for apps (Basic or client_secret_post; public clients: invalid_client). The app's own live access or refresh token answers active with scope, client_id, username (the account's id), token_type, exp, iat, sub, aud, iss and membership_id; anything else — expired, used, revoked, another app's, garbage — answers {active: false}."
      )
  )
  .annotate(OpenApi.Title, "OAuth")
{}
