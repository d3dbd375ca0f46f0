import type { HttpClient } from "@effect/platform"
import { Clock, Context, Effect, Either, Layer, Option, Schema } from "effect"
import * as jose from "jose"
import {
  AccessTokenExpired,
  AccessTokenInvalid,
  type AccessTokenRejected,
  AccessTokenWrongAudience,
  type JwksUnavailable
} from "./accessTokenErrors.ts"
import { type KeyLookup, makeRemoteJwks, type RemoteJwksOptions } from "./RemoteJwks.ts"

/** RFC 9068: the header type of an access token, so an id token can never pass for one. */
const ACCESS_TOKEN_TYPE = "at+jwt"

/** What an access token of the issuer says: `sub` the account, `sid` its sign-in, `client_id` the client it was issued to. */
export const AccessTokenClaims = Schema.Struct({
  iss: Schema.String,
  sub: Schema.String,
  sid: Schema.String,
  aud: Schema.Union(Schema.String, Schema.Array(Schema.String)),
  client_id: Schema.String,
  scope: Schema.optional(Schema.String),
  iat: Schema.optional(Schema.Number),
  exp: Schema.Number,
  jti: Schema.optional(Schema.String)
})
export type AccessTokenClaims = typeof AccessTokenClaims.Type
const decodeClaims = Schema.decodeUnknownEither(AccessTokenClaims)

export interface AccessTokenVerifierOptions {
  /** The issuer's identifier, exactly as its tokens carry it in `iss` (accounts: its public URL). */
  readonly issuer: string
  /** Where its keys are published; default `<issuer>/.well-known/jwks.json`. */
  readonly jwksUrl?: string
  /** The audiences this service accepts; a token must name at least one. */
  readonly audience: string | ReadonlyArray<string>
  /** Signature algorithms accepted (default EdDSA, what accounts signs access tokens with). */
  readonly algorithms?: ReadonlyArray<string>
  readonly refetchCooldown?: RemoteJwksOptions["refetchCooldown"]
  readonly maxAge?: RemoteJwksOptions["maxAge"]
  readonly timeout?: RemoteJwksOptions["timeout"]
}

/**
 * Verifies another service's access tokens (accounts', for the registry) against the issuer's
 * JWKS over HTTP: header type, signing key by `kid`, signature, issuer, audience and expiry
 * (time from `Clock`), then the claims.
 */
export class AccessTokenVerifier extends Context.Tag("@platform/auth/AccessTokenVerifier")<AccessTokenVerifier, {
  readonly verify: (token: string) => Effect.Effect<AccessTokenClaims, AccessTokenRejected | JwksUnavailable>
}>() {
  static readonly layer = (options: AccessTokenVerifierOptions): Layer.Layer<AccessTokenVerifier, never, HttpClient.HttpClient> =>
    Layer.effect(AccessTokenVerifier, makeAccessTokenVerifier(options))
}

const invalid = (reason: AccessTokenInvalid["reason"], message: string) => new AccessTokenInvalid({ reason, message })

const headerOf = (token: string): Either.Either<jose.ProtectedHeaderParameters, AccessTokenInvalid> => {
  try {
    return Either.right(jose.decodeProtectedHeader(token))
  } catch {
    return Either.left(invalid("malformed", "The token is not a JWS in compact form."))
  }
}

const rejection = (cause: unknown): AccessTokenRejected => {
  if (cause instanceof jose.errors.JWTExpired) return new AccessTokenExpired({ message: "The access token has expired." })
  if (cause instanceof jose.errors.JWTClaimValidationFailed) {
    switch (cause.claim) {
      case "aud":
        return new AccessTokenWrongAudience({ message: "The access token was issued for another audience." })
      case "iss":
        return invalid("wrong_issuer", "The access token comes from another issuer.")
      default:
        return invalid("invalid_claims", `The access token's ${cause.claim} claim does not hold.`)
    }
  }
  if (cause instanceof jose.errors.JWSSignatureVerificationFailed || cause instanceof jose.errors.JOSEAlgNotAllowed) {
    return invalid("bad_signature", "The access token's signature does not hold.")
  }
  if (cause instanceof jose.errors.JWKSNoMatchingKey || cause instanceof jose.errors.JWKSMultipleMatchingKeys) {
    return invalid("unknown_key", "No published key of the issuer verifies this token.")
  }
  return invalid("malformed", "The access token is malformed.")
}

export const makeAccessTokenVerifier = (options: AccessTokenVerifierOptions) =>
  Effect.gen(function*() {
    const jwks = yield* makeRemoteJwks({
      url: options.jwksUrl ?? `${options.issuer.replace(/\/+$/, "")}/.well-known/jwks.json`,
      ...(options.refetchCooldown === undefined ? {} : { refetchCooldown: options.refetchCooldown }),
      ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
      ...(options.timeout === undefined ? {} : { timeout: options.timeout })
    })
    const audience = typeof options.audience === "string" ? [options.audience] : [...options.audience]
    const algorithms = [...(options.algorithms ?? ["EdDSA"])]

    const verifyWith = (token: string, keys: KeyLookup) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.tryPromise({
          try: () =>
            jose.jwtVerify(token, keys, {
              issuer: options.issuer,
              audience,
              algorithms,
              requiredClaims: ["exp"],
              currentDate: new Date(now)
            }),
          catch: rejection
        }))

    const verify = (token: string): Effect.Effect<AccessTokenClaims, AccessTokenRejected | JwksUnavailable> =>
      Effect.gen(function*() {
        const header = yield* headerOf(token)
        // Checked before the keys are looked up, so an id token costs no JWKS fetch.
        if (header.typ === undefined || !isAccessTokenType(header.typ)) {
          return yield* invalid("not_access_token", "The token is not an access token.")
        }
        if (header.kid === undefined) return yield* invalid("unknown_key", "The token's header names no key.")
        const keys = yield* jwks.keysFor(header.kid)
        if (Option.isNone(keys)) return yield* invalid("unknown_key", "The issuer does not publish the key that signed this token.")
        const { payload } = yield* verifyWith(token, keys.value)
        // Identity tokens (token_use identity) are typed otherwise too; an access token carries no token_use.
        if (payload["token_use"] !== undefined) return yield* invalid("not_access_token", "The token is not an access token.")
        const claims = decodeClaims(payload)
        if (Either.isLeft(claims)) return yield* invalid("invalid_claims", "The access token lacks sub, sid or client_id.")
        return claims.right
      })

    return AccessTokenVerifier.of({ verify })
  })

// RFC 8725 §3.11: `at+jwt`, or its media type form, in any case.
const isAccessTokenType = (typ: string): boolean => {
  const normalized = typ.toLowerCase()
  return normalized === ACCESS_TOKEN_TYPE || normalized === `application/${ACCESS_TOKEN_TYPE}`
}
