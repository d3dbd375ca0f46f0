import { AUTHORIZATION_CODE, DEVICE_CODE, JWT_BEARER, oauthParameter, oauthRequest, REFRESH_TOKEN, TOKEN_EXCHANGE } from "@platform/oauth"
import { Schema } from "effect"
import { SHORT_LIVED_TOKEN } from "./clientGrants.ts"

/** Client authentication in the body (client_secret_post), or a public client's id; HTTP Basic replaces both. */
const clientFields = {
  client_id: Schema.optional(oauthParameter(
    "The app id (with client_secret, or agreeing with HTTP Basic), or a public client: `accounts` (first party), `developer` (the client developer)"
  )),
  client_secret: Schema.optional(oauthParameter("The app secret (client_secret_post); never together with HTTP Basic"))
}

const grantType = (value: string) => Schema.Literal(value).annotations({ description: "The grant" })

/** The token endpoint's body, one shape per grant (RFC 6749 §4.1.3 and §6, RFC 8628 §3.4, RFC 7523 §2.1). */
export const TokenRequests = [
  oauthRequest("AuthorizationCodeTokenRequest", "grant_type authorization_code (apps and the client developer)", {
    grant_type: grantType(AUTHORIZATION_CODE),
    code: oauthParameter("The sac_ code from the redirect: 120 seconds, single use"),
    redirect_uri: oauthParameter("Identical to the authorize request's"),
    code_verifier: Schema.optional(oauthParameter("PKCE verifier, 43 to 128 characters; when the code has a challenge and only then")),
    ...clientFields
  }),
  oauthRequest("RefreshTokenRequest", "grant_type refresh_token (apps, the client developer and the first-party client)", {
    grant_type: grantType(REFRESH_TOKEN),
    refresh_token: oauthParameter("The sar_ refresh token; it rotates, and a used one revokes its sign-in"),
    ...clientFields
  }),
  oauthRequest("DeviceCodeTokenRequest", "RFC 8628 device code polling (first-party client `accounts`)", {
    grant_type: grantType(DEVICE_CODE),
    device_code: oauthParameter("The device_code of POST /v1/device/authorize; poll every 5 seconds"),
    client_id: oauthParameter("`accounts`")
  }),
  oauthRequest("JwtBearerTokenRequest", "RFC 7523 Silicon sign-in with a key assertion or a trusted outside token (first-party client `accounts`)", {
    grant_type: grantType(JWT_BEARER),
    assertion: oauthParameter(
      "A JWT signed EdDSA by one of the Silicon's live keys, or a token of an issuer a federation of the Silicon trusts (see the endpoint's description)"
    ),
    client_label: Schema.optional(oauthParameter("A name for the sign-in, cut at 100 characters")),
    silicon: Schema.optional(oauthParameter("Outside tokens only: the Silicon (si: id or uuid) when several trust the token")),
    client_id: oauthParameter("`accounts`")
  }),
  oauthRequest("TokenExchangeTokenRequest", "RFC 8693 token exchange: a trusted outside token signs a Silicon in (first-party client `accounts`, which may be omitted)", {
    grant_type: grantType(TOKEN_EXCHANGE),
    subject_token: oauthParameter("The outside token (a JWT of at most 16 KB) from an issuer a federation of the Silicon trusts"),
    subject_token_type: oauthParameter(
      "urn:ietf:params:oauth:token-type:jwt, urn:ietf:params:oauth:token-type:id_token or urn:ietf:params:oauth:token-type:access_token"
    ),
    requested_token_type: Schema.optional(oauthParameter("urn:ietf:params:oauth:token-type:access_token (the only one issued)")),
    client_label: Schema.optional(oauthParameter("A name for the sign-in, cut at 100 characters")),
    silicon: Schema.optional(oauthParameter("The Silicon (si: id or uuid) when several trust the token")),
    client_id: Schema.optional(oauthParameter("`accounts`, or omitted"))
  }),
  oauthRequest("ShortLivedTokenRequest", "A Silicon's short-lived token, exchanged by the app it was minted for (apps)", {
    grant_type: grantType(SHORT_LIVED_TOKEN),
    slt: oauthParameter("The slt_ token of POST /v1/me/short-lived-tokens: 120 seconds, single use"),
    ...clientFields
  })
] as const

const tokenTypeHint = Schema.optional(oauthParameter("access_token or refresh_token; accepted and not needed"))

/** RFC 7009 §2.1. */
export const RevocationRequest = oauthRequest("RevocationRequest", "Token revocation (RFC 7009)", {
  token: oauthParameter("The client's own refresh or access token"),
  token_type_hint: tokenTypeHint,
  ...clientFields
})

/** RFC 7662 §2.1. */
export const IntrospectionRequest = oauthRequest("IntrospectionRequest", "Token introspection (RFC 7662), apps only", {
  token: oauthParameter("An access or refresh token"),
  token_type_hint: tokenTypeHint,
  ...clientFields
})
