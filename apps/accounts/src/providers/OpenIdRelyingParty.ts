import { Clock, Effect, Redacted } from "effect"
import * as oidc from "openid-client"
import { ProviderFailed } from "./ProviderAnswer.ts"

/** The client we are at a provider: the deployment's (managed) or an app's own (byo). */
export interface ProviderClient {
  readonly clientId: string
  /**
   * The client secret for one token request, made only then: a stored secret, opened for the call
   * (idp_a), or a JWT signed for it (idp_b).
   */
  readonly clientSecret: Effect.Effect<Redacted.Redacted<string>>
}

/** What one round trip keeps between the authorization request and the callback. */
export interface RoundTripChecks {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
}

/** The ID token claims we use, as the provider signed them. */
export interface VerifiedClaims {
  readonly sub: string
  readonly email?: unknown
  readonly email_verified?: unknown
  readonly name?: unknown
  readonly picture?: unknown
  readonly hd?: unknown
}

/** Discovery is read again after this long (the spec's trusted issuer keys cache). */
const METADATA_TTL_MS = 10 * 60 * 1000
/** Each request to the provider: 10 seconds at most. */
const TIMEOUT_SECONDS = 10

type JwksCache = oidc.ExportedJWKSCache

const unavailable = (message: string) => new ProviderFailed({ code: "provider_unavailable", message })

const TOKEN_INVALID = new Set<string | undefined>([
  "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
  "OAUTH_JWT_TIMESTAMP_CHECK_FAILED",
  "OAUTH_KEY_SELECTION_FAILED",
  "OAUTH_INVALID_RESPONSE",
  "OAUTH_UNSUPPORTED_OPERATION"
])
const UNREACHABLE = new Set<string | undefined>(["OAUTH_RESPONSE_IS_NOT_CONFORM", "OAUTH_RESPONSE_IS_NOT_JSON"])

/** What went wrong at the token endpoint, as a flow-level error; the provider's own words are not passed on. */
const exchangeFailure = (error: unknown): ProviderFailed => {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new ProviderFailed({ code: "provider_error", message: "The identity provider refused the sign-in." })
  }
  if (error instanceof oidc.ClientError && TOKEN_INVALID.has(error.code)) {
    return new ProviderFailed({ code: "provider_token_invalid", message: "The identity provider's answer did not check out." })
  }
  if (
    (error instanceof oidc.ClientError && UNREACHABLE.has(error.code)) ||
    (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError" || error.message === "fetch failed"))
  ) {
    return unavailable("The identity provider did not answer.")
  }
  return new ProviderFailed({ code: "provider_error", message: "The identity provider's answer could not be used." })
}

/**
 * An OpenID Connect relying party for one issuer, through openid-client: discovery (kept 10 minutes),
 * the authorization URL, and the code exchange with the ID token checked (issuer, audience, nonce,
 * expiry, and its signature against the provider's JWKS, kept between exchanges).
 */
export const makeRelyingParty = (issuer: string) =>
  Effect.sync(() => {
    // http only reaches here in development (configuration refuses it in production).
    const insecure = new URL(issuer).protocol === "http:"
    let metadata: { readonly value: oidc.ServerMetadata; readonly until: number } | undefined
    let jwks: JwksCache | undefined

    const serverMetadata = Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      if (metadata !== undefined && metadata.until > at) return metadata.value
      const value = yield* Effect.tryPromise({
        try: () =>
          oidc.discovery(new URL(issuer), "discovery", undefined, undefined, {
            execute: insecure ? [oidc.allowInsecureRequests] : [],
            timeout: TIMEOUT_SECONDS
          }),
        catch: () => unavailable("The identity provider's configuration could not be read.")
      }).pipe(Effect.map((configuration) => configuration.serverMetadata()))
      metadata = { value, until: at + METADATA_TTL_MS }
      return value
    })

    /** The client at the provider; without a secret it can build authorization URLs only. */
    const configure = (clientId: string, clientSecret?: Redacted.Redacted<string>) =>
      Effect.map(serverMetadata, (server) => {
        const secret = clientSecret === undefined ? undefined : Redacted.value(clientSecret)
        const methods = server.token_endpoint_auth_methods_supported
        // client_secret_basic unless the provider takes only client_secret_post (RFC 8414's default is basic).
        const auth = secret === undefined
          ? oidc.None()
          : methods !== undefined && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
          ? oidc.ClientSecretPost(secret)
          : oidc.ClientSecretBasic(secret)
        const configuration = new oidc.Configuration(server, clientId, secret === undefined ? {} : { client_secret: secret }, auth)
        configuration.timeout = TIMEOUT_SECONDS
        if (insecure) oidc.allowInsecureRequests(configuration)
        oidc.enableNonRepudiationChecks(configuration)
        if (jwks !== undefined) oidc.setJwksCache(configuration, jwks)
        return configuration
      })

    /**
     * The provider's authorization URL for one round trip (PKCE S256, state, nonce) plus the
     * provider's own parameters (scope among them).
     */
    const authorizationUrl = (
      client: ProviderClient,
      redirectUri: string,
      checks: RoundTripChecks,
      parameters: Readonly<Record<string, string>> & { readonly scope: string }
    ) =>
      Effect.gen(function*() {
        const configuration = yield* configure(client.clientId)
        const challenge = yield* Effect.promise(() => oidc.calculatePKCECodeChallenge(checks.codeVerifier))
        return oidc.buildAuthorizationUrl(configuration, {
          redirect_uri: redirectUri,
          response_type: "code",
          state: checks.state,
          nonce: checks.nonce,
          code_challenge: challenge,
          code_challenge_method: "S256",
          ...parameters
        }).href
      })

    /** Exchanges the callback's code and answers the verified ID token's claims. */
    const exchange = (client: ProviderClient, callbackUrl: URL, checks: RoundTripChecks) =>
      Effect.gen(function*() {
        const configuration = yield* configure(client.clientId, yield* client.clientSecret)
        const tokens = yield* Effect.tryPromise({
          try: () =>
            oidc.authorizationCodeGrant(configuration, callbackUrl, {
              pkceCodeVerifier: checks.codeVerifier,
              expectedState: checks.state,
              expectedNonce: checks.nonce,
              idTokenExpected: true
            }),
          catch: exchangeFailure
        })
        jwks = oidc.getJwksCache(configuration) ?? jwks
        const claims = tokens.claims()
        if (claims === undefined) {
          return yield* new ProviderFailed({ code: "provider_token_invalid", message: "The identity provider sent no ID token." })
        }
        const verified: VerifiedClaims = claims
        return verified
      })

    return { authorizationUrl, exchange } as const
  })

export type RelyingParty = Effect.Effect.Success<ReturnType<typeof makeRelyingParty>>

export const newRoundTripChecks = (): RoundTripChecks => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  codeVerifier: oidc.randomPKCECodeVerifier()
})
