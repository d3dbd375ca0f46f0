import { HttpServerRequest } from "@effect/platform"
import { clientAddressOf } from "@platform/http"
import { JWT_BEARER, OAuthError, oauthError, required, TOKEN_EXCHANGE } from "@platform/oauth"
import { RateLimiter, type RateLimitRule, enforceRateLimit } from "@platform/rate-limit"
import { Effect, Either, Layer, Option } from "effect"
import * as jose from "jose"
import { AccountsConfig } from "../config.ts"
import type { OAuthClient } from "../oauth/OAuthClient.ts"
import { grantOf, TokenGrants } from "../oauth/TokenGrants.ts"
import { CustodianRequestsRepo } from "../silicons/CustodianRequestsRepo.ts"
import { Custody } from "../silicons/Custody.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { TokenIssuerLive } from "../silicons/TokenIssuerLive.ts"
import { FederationsRepo } from "./FederationsRepo.ts"
import { IssuerKeys } from "./IssuerKeys.ts"
import { outsideTokenSignIn } from "./outsideTokenSignIn.ts"

/** Spec 1, Rate limits: token exchange with an outside token. */
const outsideTokensPerIp: RateLimitRule = {
  id: "outside_tokens",
  operation: "a sign-in with an outside token at POST /v1/oauth/token",
  limit: 60,
  window: "1 minute",
  per: "IP"
}

/** RFC 8693 §3 token types a JWT from an outside issuer may be presented as. */
const SUBJECT_TOKEN_TYPES = new Set([
  "urn:ietf:params:oauth:token-type:jwt",
  "urn:ietf:params:oauth:token-type:id_token",
  "urn:ietf:params:oauth:token-type:access_token"
])
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"

/** Counts the request against 60 per minute per IP; over it, 429 rate_limited with Retry-After. */
const countOutsideToken = Effect.gen(function*() {
  const config = yield* AccountsConfig
  const limiter = yield* RateLimiter
  // The request is in the grant's context at run time (grantOf merges it in), not when the grant is built.
  const request = yield* Effect.serviceOption(HttpServerRequest.HttpServerRequest)
  const ip = Option.match(request, { onNone: () => "unknown", onSome: (r) => clientAddressOf(r, config.trustProxy) })
  yield* enforceRateLimit(limiter, outsideTokensPerIp, ip).pipe(
    Effect.mapError((limited) =>
      new OAuthError({
        error: "rate_limited",
        error_description: limited.message,
        retry_after_seconds: limited.details?.retry_after_seconds ?? 60
      })
    )
  )
})

const signIn = (client: OAuthClient, token: string, parameters: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    if (client.kind !== "first_party") {
      return yield* oauthError("unauthorized_client", "An outside token signs a Silicon in for the first-party client only.")
    }
    yield* countOutsideToken
    return yield* outsideTokenSignIn(token, {
      silicon: parameters.get("silicon"),
      clientLabel: parameters.get("client_label")
    }).pipe(Effect.mapError((refused) => oauthError("invalid_grant", refused.message)))
  })

/** grant_type urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693): an outside token signs its Silicon in. */
export const tokenExchangeGrant = (client: OAuthClient, parameters: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    const token = yield* required(parameters, "subject_token")
    const tokenType = yield* required(parameters, "subject_token_type")
    if (!SUBJECT_TOKEN_TYPES.has(tokenType)) {
      return yield* oauthError("unsupported_token_type", `subject_token_type must be one of ${[...SUBJECT_TOKEN_TYPES].join(", ")}.`)
    }
    const requested = parameters.get("requested_token_type")
    if (requested !== undefined && requested !== ACCESS_TOKEN_TYPE) {
      return yield* oauthError("invalid_request", `Only ${ACCESS_TOKEN_TYPE} is issued.`)
    }
    if (parameters.has("actor_token")) return yield* oauthError("invalid_request", "Delegation (actor_token) is not supported.")
    const response = yield* signIn(client, token, parameters)
    return { ...response, issued_token_type: ACCESS_TOKEN_TYPE } as const
  })

/** Whether a jwt-bearer assertion comes from an outside issuer (its iss an https URL) rather than a Silicon's key. */
const isOutsideToken = (assertion: string) =>
  Either.match(Either.try(() => jose.decodeJwt(assertion)), {
    onLeft: () => false,
    onRight: (claims) => typeof claims.iss === "string" && claims.iss.startsWith("https://")
  })

/**
 * The federations' grants: token-exchange, and jwt-bearer for outside tokens in front of the jwt-bearer
 * grant below it (a Silicon's key assertion names the Silicon in iss; an outside token, its issuer's URL).
 */
export const FederatedGrantsLive = Layer.effect(
  TokenGrants,
  Effect.gen(function*() {
    const below = yield* TokenGrants
    const keyAssertion = below.get(JWT_BEARER)
    const exchange = yield* grantOf(TOKEN_EXCHANGE, tokenExchangeGrant)
    const bearer = yield* grantOf(JWT_BEARER, (client, parameters) =>
      Effect.flatMap(required(parameters, "assertion"), (assertion) =>
        isOutsideToken(assertion) || keyAssertion === undefined
          ? signIn(client, assertion, parameters)
          : keyAssertion.run(client, parameters)))
    return new Map([...below, [exchange.grantType, exchange], [bearer.grantType, bearer]])
  })
).pipe(
  Layer.provide([
    FederationsRepo.Default,
    IssuerKeys.Default,
    TokenIssuerLive,
    SiliconsRepo.Default,
    CustodianRequestsRepo.Default,
    Custody.Default
  ])
)
