import type { OutboundPolicy } from "@platform/outbound"
import { Effect } from "effect"
import * as oidc from "openid-client"
import { SsoIssuerUnusable, SsoProviderError, SsoTokenInvalid } from "./errors.ts"
import { guardedFetch } from "./guardedFetch.ts"

/** Each request to the provider: 10 seconds at most. */
const TIMEOUT_SECONDS = 10

/** What one sign-in round trip keeps between the redirect and the callback. */
export interface RoundTripChecks {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
}

export const newRoundTripChecks = (): RoundTripChecks => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  codeVerifier: oidc.randomPKCECodeVerifier()
})

/** The claims IAM uses: from the ID token the provider signed, or from its userinfo when the ID token has no email. */
export interface ProviderClaims {
  readonly sub: string
  readonly email?: unknown
  readonly email_verified?: unknown
}

const TOKEN_INVALID = new Set<string | undefined>([
  "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
  "OAUTH_JWT_TIMESTAMP_CHECK_FAILED",
  "OAUTH_KEY_SELECTION_FAILED",
  "OAUTH_INVALID_RESPONSE",
  "OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED"
])

const exchangeFailure = (error: unknown) =>
  error instanceof oidc.ClientError && TOKEN_INVALID.has(error.code)
    ? new SsoTokenInvalid({ message: "The identity provider's ID token did not check out.", hint: "Sign in again." })
    : new SsoProviderError({ message: "The identity provider refused the sign-in or did not answer.", hint: "Try again later." })

/**
 * An organization's identity provider, through openid-client: discovery (the document's issuer must be the
 * one configured), the authorization URL with state, nonce and PKCE S256, and the code exchange whose ID
 * token openid-client checks (signature against the provider's JWKS, issuer, audience, nonce, expiry), then
 * userinfo when the ID token leaves the email out.
 * Every request goes through the outbound guard; http only reaches here on loopback in development.
 */
export const relyingParty = (policy: OutboundPolicy, client: { readonly issuer: string; readonly clientId: string; readonly clientSecret: string }) =>
  Effect.tryPromise({
    try: () => {
      const insecure = new URL(client.issuer).protocol === "http:"
      return oidc.discovery(
        new URL(client.issuer),
        client.clientId,
        { client_secret: client.clientSecret },
        oidc.ClientSecretBasic(client.clientSecret),
        {
          [oidc.customFetch]: guardedFetch(policy),
          execute: insecure ? [oidc.allowInsecureRequests] : [],
          timeout: TIMEOUT_SECONDS
        }
      )
    },
    catch: (error) =>
      new SsoIssuerUnusable({
        message: "The issuer's OpenID Connect discovery document could not be read or used.",
        hint: "Check the issuer URL: IAM reads <issuer>/.well-known/openid-configuration.",
        details: { reason: error instanceof Error ? error.message : "unknown failure" }
      })
  }).pipe(Effect.map((configuration) => {
    oidc.enableNonRepudiationChecks(configuration)
    return {
      authorizationUrl: (redirectUri: string, checks: RoundTripChecks) =>
        Effect.promise(() => oidc.calculatePKCECodeChallenge(checks.codeVerifier)).pipe(Effect.map((challenge) =>
          oidc.buildAuthorizationUrl(configuration, {
            redirect_uri: redirectUri,
            response_type: "code",
            scope: "openid email",
            state: checks.state,
            nonce: checks.nonce,
            code_challenge: challenge,
            code_challenge_method: "S256"
          }).href
        )),
      exchange: (callbackUrl: URL, checks: RoundTripChecks) =>
        Effect.tryPromise({
          try: () =>
            oidc.authorizationCodeGrant(configuration, callbackUrl, {
              pkceCodeVerifier: checks.codeVerifier,
              expectedState: checks.state,
              expectedNonce: checks.nonce,
              idTokenExpected: true
            }),
          catch: exchangeFailure
        }).pipe(Effect.flatMap((tokens) => {
          const claims = tokens.claims()
          if (claims === undefined) return Effect.fail(new SsoTokenInvalid({ message: "The identity provider sent no ID token." }))
          if (claims.email !== undefined) return Effect.succeed<ProviderClaims>(claims)
          // Providers that keep the ID token minimal (OpenID Connect Core 5.4, e.g. oidc-provider by default)
          // answer the email scope's claims at userinfo; openid-client checks that its `sub` is the ID token's.
          return Effect.tryPromise({
            try: () => oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub),
            catch: exchangeFailure
          }).pipe(Effect.map((userinfo): ProviderClaims => ({ sub: claims.sub, email: userinfo.email, email_verified: userinfo.email_verified })))
        }))
    }
  }))
