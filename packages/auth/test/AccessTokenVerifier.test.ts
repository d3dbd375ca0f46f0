import { FetchHttpClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { SigningKeys } from "@platform/signing-keys"
import { Clock, Duration, Effect, Either, Layer, TestClock } from "effect"
import * as jose from "jose"
import { type AccessTokenVerifierOptions, makeAccessTokenVerifier } from "../src/index.ts"
import { IssuerKeys, JwksServer } from "./jwksServer.ts"

const ISSUER = "https://accounts.example"
const AUDIENCE = "registry"

const verifierFor = (options: Partial<AccessTokenVerifierOptions> = {}) =>
  Effect.flatMap(JwksServer, ({ url }) =>
    makeAccessTokenVerifier({ issuer: ISSUER, jwksUrl: url, audience: AUDIENCE, ...options }))

const claimsAt = (nowMillis: number, overrides: Record<string, unknown> = {}) => {
  const iat = Math.floor(nowMillis / 1000)
  return {
    iss: ISSUER,
    sub: "A1b2C3d4",
    aud: AUDIENCE,
    client_id: AUDIENCE,
    sid: "sgn_1",
    scope: "profile",
    iat,
    exp: iat + 1800,
    jti: "at_1",
    ...overrides
  }
}

/** An access token as accounts signs one (EdDSA, typ at+jwt, kid of its active key), with claims changed at will. */
const accessToken = (overrides: Record<string, unknown> = {}, typ = "at+jwt") =>
  Effect.gen(function*() {
    const keys = yield* SigningKeys
    return yield* keys.signJwt("EdDSA", claimsAt(yield* Clock.currentTimeMillis, overrides), { typ })
  })

/** A token signed with a key the issuer never published, its header naming `kid`. */
const foreignToken = (kid: string, alg: "EdDSA" | "HS256" = "EdDSA") =>
  Effect.gen(function*() {
    const claims = claimsAt(yield* Clock.currentTimeMillis)
    const key = alg === "EdDSA"
      ? (yield* Effect.promise(() => jose.generateKeyPair("EdDSA"))).privateKey
      : new TextEncoder().encode("a shared secret of at least thirty-two bytes")
    return yield* Effect.promise(() => new jose.SignJWT(claims).setProtectedHeader({ alg, typ: "at+jwt", kid }).sign(key))
  })

const kidOf = (token: string) => jose.decodeProtectedHeader(token).kid!

/** What a verification ends with: the error's tag and reason, or the claims. */
const outcome = (verify: (token: string) => Effect.Effect<unknown, { readonly _tag: string }>, token: string) =>
  Effect.either(verify(token)).pipe(
    Effect.map(Either.mapLeft((error) => "reason" in error ? `${error._tag}:${String(error.reason)}` : error._tag))
  )

layer(Layer.merge(IssuerKeys, FetchHttpClient.layer))("AccessTokenVerifier over a served JWKS", (it) => {
  describe("what it accepts", () => {
    it.effect("an access token of the issuer for one of our audiences passes, with its claims", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor({ audience: ["other", AUDIENCE] })
        const now = yield* Clock.currentTimeMillis
        const claims = yield* verify(yield* accessToken())
        expect(claims).toEqual(claimsAt(now))
        const listed = yield* verify(yield* accessToken({ aud: ["someone-else", AUDIENCE] }))
        expect(listed.aud).toEqual(["someone-else", AUDIENCE])
      }))
  })

  describe("what it refuses", () => {
    it.effect("another issuer, another audience and an expired token, each with its own error", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor()
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        expect(yield* outcome(verify, yield* accessToken({ iss: "https://elsewhere.example" }))).toEqual(
          Either.left("AccessTokenInvalid:wrong_issuer")
        )
        expect(yield* outcome(verify, yield* accessToken({ aud: "accounts" }))).toEqual(Either.left("AccessTokenWrongAudience"))
        expect(yield* outcome(verify, yield* accessToken({ iat: now - 1800, exp: now }))).toEqual(
          Either.left("AccessTokenExpired")
        )
        expect(yield* outcome(verify, yield* accessToken({ exp: undefined }))).toEqual(Either.left("AccessTokenInvalid:invalid_claims"))
      }))

    it.effect("a forged signature: a tampered payload, a foreign key naming the issuer's kid, an HMAC under its kid", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor()
        const genuine = yield* accessToken()
        const [header, , signature] = genuine.split(".")
        const otherPayload = (yield* accessToken({ sub: "someone-else" })).split(".")[1]
        expect(yield* outcome(verify, `${header}.${otherPayload}.${signature}`)).toEqual(Either.left("AccessTokenInvalid:bad_signature"))
        expect(yield* outcome(verify, yield* foreignToken(kidOf(genuine)))).toEqual(Either.left("AccessTokenInvalid:bad_signature"))
        expect(yield* outcome(verify, yield* foreignToken(kidOf(genuine), "HS256"))).toEqual(
          Either.left("AccessTokenInvalid:bad_signature")
        )
      }))

    it.effect("an id token, an identity token and an untyped JWT are not access tokens", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor()
        const keys = yield* SigningKeys
        const claims = claimsAt(yield* Clock.currentTimeMillis)
        expect(yield* outcome(verify, yield* accessToken({}, "JWT"))).toEqual(Either.left("AccessTokenInvalid:not_access_token"))
        expect(yield* outcome(verify, yield* accessToken({ token_use: "identity" }))).toEqual(
          Either.left("AccessTokenInvalid:not_access_token")
        )
        expect(yield* outcome(verify, yield* keys.signJwt("EdDSA", claims))).toEqual(Either.left("AccessTokenInvalid:not_access_token"))
        expect(yield* outcome(verify, yield* keys.signJwt("RS256", claims, { typ: "at+jwt" }))).toEqual(
          Either.left("AccessTokenInvalid:bad_signature")
        )
      }))

    it.effect("a token without sid or client_id, and strings that are no JWS at all", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor()
        expect(yield* outcome(verify, yield* accessToken({ sid: undefined }))).toEqual(Either.left("AccessTokenInvalid:invalid_claims"))
        expect(yield* outcome(verify, yield* accessToken({ client_id: 7 }))).toEqual(Either.left("AccessTokenInvalid:invalid_claims"))
        expect(yield* outcome(verify, "")).toEqual(Either.left("AccessTokenInvalid:malformed"))
        expect(yield* outcome(verify, "not.a.jwt")).toEqual(Either.left("AccessTokenInvalid:malformed"))
      }))
  })

  describe("the issuer's keys", () => {
    it.effect("after a rotation, a token of the new key is verified once the cooldown since the last fetch is over", () =>
      Effect.gen(function*() {
        const served = yield* JwksServer
        const keys = yield* SigningKeys
        const { verify } = yield* verifierFor()
        const before = yield* accessToken()
        const fetched = served.fetches()
        yield* verify(before)
        expect(served.fetches()).toBe(fetched + 1)

        yield* keys.rotate
        const after = yield* accessToken()
        expect(kidOf(after)).not.toBe(kidOf(before))
        // Just fetched: the unknown kid waits for the cooldown rather than fetching again.
        expect(yield* outcome(verify, after)).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        expect(served.fetches()).toBe(fetched + 1)

        yield* TestClock.adjust(Duration.seconds(30))
        expect((yield* verify(after)).sub).toBe("A1b2C3d4")
        expect(served.fetches()).toBe(fetched + 2)
        // The retired key stays published, so tokens it signed still verify, from the keys at hand.
        yield* verify(before)
        expect(served.fetches()).toBe(fetched + 2)
      }))

    it.effect("unknown kids fetch the JWKS at most once per 30 seconds, however many arrive", () =>
      Effect.gen(function*() {
        const served = yield* JwksServer
        const { verify } = yield* verifierFor()
        yield* verify(yield* accessToken())
        const fetched = served.fetches()
        yield* TestClock.adjust(Duration.seconds(30))

        expect(yield* outcome(verify, yield* foreignToken("kid-1"))).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        expect(served.fetches()).toBe(fetched + 1)
        for (const kid of ["kid-2", "kid-3", "kid-4"]) {
          expect(yield* outcome(verify, yield* foreignToken(kid))).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        }
        yield* TestClock.adjust(Duration.seconds(29))
        expect(yield* outcome(verify, yield* foreignToken("kid-5"))).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        expect(served.fetches()).toBe(fetched + 1)

        yield* TestClock.adjust(Duration.seconds(1))
        expect(yield* outcome(verify, yield* foreignToken("kid-6"))).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        expect(served.fetches()).toBe(fetched + 2)
        // A token without a kid names no key, and costs no fetch.
        const noKid = yield* Effect.promise(async () => {
          const { privateKey } = await jose.generateKeyPair("EdDSA")
          return new jose.SignJWT({ sub: "x" }).setProtectedHeader({ alg: "EdDSA", typ: "at+jwt" }).sign(privateKey)
        })
        expect(yield* outcome(verify, noKid)).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
        expect(served.fetches()).toBe(fetched + 2)
      }))

    it.effect("keys older than the maximum age (10 minutes) are read again before use", () =>
      Effect.gen(function*() {
        const served = yield* JwksServer
        const { verify } = yield* verifierFor()
        yield* verify(yield* accessToken())
        const fetched = served.fetches()
        yield* TestClock.adjust(Duration.minutes(9))
        yield* verify(yield* accessToken())
        expect(served.fetches()).toBe(fetched)
        yield* TestClock.adjust(Duration.minutes(1))
        yield* verify(yield* accessToken())
        expect(served.fetches()).toBe(fetched + 1)
      }))

    it.scoped("while the JWKS cannot be read, known keys still verify and an unknown kid is JwksUnavailable, not a refusal", () =>
      Effect.gen(function*() {
        const served = yield* JwksServer
        const { verify } = yield* verifierFor()
        const known = yield* accessToken()
        yield* verify(known)
        const fetched = served.fetches()
        served.failWith(503)
        yield* Effect.addFinalizer(() => Effect.sync(() => served.failWith(undefined)))
        yield* TestClock.adjust(Duration.minutes(10))

        // Stale now, and the refetch fails: the keys at hand still serve.
        yield* verify(known)
        expect(served.fetches()).toBe(fetched + 1)
        // Within the cooldown of that failed fetch, an unknown kid cannot be told from a new key.
        expect(yield* outcome(verify, yield* foreignToken("kid-during-outage"))).toEqual(Either.left("JwksUnavailable"))
        expect(served.fetches()).toBe(fetched + 1)
        served.failWith(undefined)
        yield* TestClock.adjust(Duration.seconds(30))
        expect(yield* outcome(verify, yield* foreignToken("kid-after-outage"))).toEqual(Either.left("AccessTokenInvalid:unknown_key"))
      }))

    it.effect("with no JWKS reachable at all, every token is JwksUnavailable", () =>
      Effect.gen(function*() {
        const { verify } = yield* verifierFor({ jwksUrl: "http://127.0.0.1:1/.well-known/jwks.json" })
        expect(yield* outcome(verify, yield* accessToken())).toEqual(Either.left("JwksUnavailable"))
      }))
  })
})
