import { randomToken } from "@platform/crypto"
import { SigningKeys } from "@platform/signing-keys"
import { Duration, Effect, Either, Schema } from "effect"
import { epochSeconds, ExpiringCache } from "@platform/service"
import { AccountsConfig } from "../config.ts"

/** The first-party public client's id, which is also the first-party audience (CONTRACT.md). */
export const FIRST_PARTY_CLIENT_ID = "accounts"
export const ACCESS_TOKEN_LIFETIME = Duration.seconds(1800)
/** RFC 9068: an access token says what it is, so an id token can never pass for one. */
export const ACCESS_TOKEN_TYPE = "at+jwt"

export const AccessTokenClaims = Schema.Struct({
  sub: Schema.String,
  sid: Schema.String,
  aud: Schema.Union(Schema.String, Schema.Array(Schema.String)),
  client_id: Schema.String,
  scope: Schema.optional(Schema.String),
  token_use: Schema.optional(Schema.String),
  iat: Schema.optional(Schema.Number),
  exp: Schema.optional(Schema.Number)
})
export type AccessTokenClaims = typeof AccessTokenClaims.Type

export const audiencesOf = (claims: AccessTokenClaims): ReadonlyArray<string> =>
  typeof claims.aud === "string" ? [claims.aud] : claims.aud

/** How many verified access tokens one process remembers. */
const VERIFIED_TOKENS_KEPT = 20_000

export type AccessTokenProblem = "invalid" | "expired" | "wrong_audience" | "identity_token"

/** Access tokens: EdDSA JWTs of 1800 seconds, `kid` in the header, `sub` the account uuid, `sid` the sign-in. */
export class AccessTokens extends Effect.Service<AccessTokens>()("accounts/AccessTokens", {
  effect: Effect.gen(function*() {
    const keys = yield* SigningKeys
    const { publicUrl } = yield* AccountsConfig

    const issue = (input: {
      readonly accountUuid: string
      readonly signinId: string
      readonly clientId: string
      readonly audience: string
      readonly scope: string
      readonly now: Date
    }) => {
      const iat = epochSeconds(input.now)
      const expiresIn = Duration.toSeconds(ACCESS_TOKEN_LIFETIME)
      return Effect.map(
        keys.signJwt("EdDSA", {
          iss: publicUrl,
          sub: input.accountUuid,
          aud: input.audience,
          client_id: input.clientId,
          sid: input.signinId,
          scope: input.scope,
          iat,
          exp: iat + expiresIn,
          jti: randomToken("at_", 16)
        }, { typ: ACCESS_TOKEN_TYPE }),
        (token) => ({ token, expiresIn })
      )
    }

    // A token's signature and claims never change: once verified, it is taken as is until its exp
    // (an app calls userinfo many times with one token). What it names is still read every time.
    const verified = new ExpiringCache<AccessTokenClaims>(VERIFIED_TOKENS_KEPT)

    /** Checks signature, issuer, type and lifetime, whatever the audience. */
    const verifyAnyAudience = (token: string, now: Date): Effect.Effect<AccessTokenClaims, AccessTokenProblem> => {
      const known = verified.get(token, now.getTime())
      if (known !== undefined) return Effect.succeed(known)
      return keys.verifyJwt(token, { issuer: publicUrl, algorithms: ["EdDSA", "RS256"], currentDate: now }).pipe(
        Effect.mapError((rejected): AccessTokenProblem => (rejected.reason === "expired" ? "expired" : "invalid")),
        Effect.flatMap(({ payload, protectedHeader }) => {
          if (payload["token_use"] === "identity") return Effect.fail<AccessTokenProblem>("identity_token")
          if (protectedHeader.typ !== ACCESS_TOKEN_TYPE) return Effect.fail<AccessTokenProblem>("invalid")
          const claims = Schema.decodeUnknownEither(AccessTokenClaims)(payload)
          if (Either.isLeft(claims)) return Effect.fail<AccessTokenProblem>("invalid")
          // jose refused a token whose exp has passed; one without exp is not an access token of ours.
          if (claims.right.exp === undefined) return Effect.fail<AccessTokenProblem>("invalid")
          verified.set(token, claims.right, claims.right.exp * 1000)
          return Effect.succeed(claims.right)
        })
      )
    }

    /** Checks signature, issuer, type and lifetime, then says whether the token is one for `audience`. */
    const verify = (token: string, audience: string, now: Date) =>
      Effect.flatMap(verifyAnyAudience(token, now), (claims) =>
        audiencesOf(claims).includes(audience) ? Effect.succeed(claims) : Effect.fail<AccessTokenProblem>("wrong_audience"))

    return { issue, verify, verifyAnyAudience } as const
  })
}) {}
