import { now } from "@platform/service"
import { Data, Duration, Effect, Either, Option } from "effect"
import * as jose from "jose"
import { TokenIssuer } from "../oauth/TokenIssuer.ts"
import { findNamedSilicon } from "../silicons/identity/findNamedSilicon.ts"
import { signinEligibility } from "../silicons/signinEligibility.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { FederationsRepo } from "./FederationsRepo.ts"
import { IssuerKeys } from "./IssuerKeys.ts"
import { audienceHolds, OUTSIDE_TOKEN_ALGORITHMS, trustsMet } from "./outsideTokenClaims.ts"

/** Spec 1, Limits: outside tokens and the sign-ins they make. */
export const OUTSIDE_TOKEN = {
  maxBytes: 16 * 1024,
  clockSkewSeconds: 30,
  shortestSignin: Duration.minutes(30),
  longestSignin: Duration.hours(12)
} as const

const CLIENT_LABEL_LIMIT = 100

/** Why an outside token signs nothing in; the message is for whoever holds the token. */
export class OutsideTokenRefused extends Data.TaggedError("OutsideTokenRefused")<{ readonly message: string }> {}

const refuse = (message: string) => Effect.fail(new OutsideTokenRefused({ message }))
const NOT_SIGNED = "The token is not signed by a key its issuer publishes."

const decoded = (token: string) =>
  Either.try(() => ({ header: jose.decodeProtectedHeader(token), claims: jose.decodeJwt(token) }))

/** What jose's refusal means to the token's holder (never the key material). */
const verificationProblem = (error: unknown): string => {
  if (error instanceof jose.errors.JWTExpired) return "The token has expired."
  if (error instanceof jose.errors.JWTClaimValidationFailed) return `The token's ${error.claim} claim does not hold: ${error.reason}.`
  return NOT_SIGNED
}

/** From now until the outside token's exp, kept within 30 minutes and 12 hours. */
export const federatedSigninEnd = (at: Date, exp: number): Date => {
  const shortest = at.getTime() + Duration.toMillis(OUTSIDE_TOKEN.shortestSignin)
  const longest = at.getTime() + Duration.toMillis(OUTSIDE_TOKEN.longestSignin)
  return new Date(Math.min(longest, Math.max(shortest, exp * 1000)))
}

/**
 * A Silicon signs in with a token of an outside issuer it trusts (token-exchange and jwt-bearer grants).
 * In order: size and form, an issuer some Silicon trusts (no keys are fetched for any other), the
 * signature with the issuer's published keys, iss and exp (30 s of skew), then the trusts whose audience
 * and every condition the token meets, which must name one Silicon (`silicon` narrows them), and that
 * Silicon's eligibility. The sign-in lasts until the token's exp, at least 30 minutes, at most 12 hours.
 */
export const outsideTokenSignIn = (
  token: string,
  options: { readonly silicon: string | undefined; readonly clientLabel: string | undefined }
) =>
  Effect.gen(function*() {
    if (Buffer.byteLength(token, "utf8") > OUTSIDE_TOKEN.maxBytes) {
      return yield* refuse(`The token is longer than ${OUTSIDE_TOKEN.maxBytes} bytes.`)
    }
    const parts = decoded(token)
    if (Either.isLeft(parts)) return yield* refuse("The token is not a signed JWT.")
    const { claims, header } = parts.right
    if (typeof header.alg !== "string" || !OUTSIDE_TOKEN_ALGORITHMS.includes(header.alg)) {
      return yield* refuse(`The token's alg must be one of ${OUTSIDE_TOKEN_ALGORITHMS.join(", ")}.`)
    }
    if (header.kid !== undefined && typeof header.kid !== "string") return yield* refuse("kid must be a string.")
    if (typeof claims.iss !== "string") return yield* refuse("The token has no iss.")
    const trusts = yield* Effect.flatMap(FederationsRepo, (repo) => repo.liveForIssuer(claims.iss as string))
    if (trusts.length === 0) return yield* refuse("No Silicon trusts this token's issuer.")
    const keys = yield* Effect.flatMap(IssuerKeys, (issuerKeys) => issuerKeys.keysFor(claims.iss as string, header.kid)).pipe(
      Effect.mapError((unavailable) => new OutsideTokenRefused({ message: `The issuer's keys could not be read: ${unavailable.reason}.` }))
    )
    if (Option.isNone(keys)) return yield* refuse(NOT_SIGNED)
    const at = yield* now
    const verified = yield* Effect.tryPromise({
      try: () =>
        jose.jwtVerify(token, keys.value, {
          issuer: claims.iss as string,
          algorithms: OUTSIDE_TOKEN_ALGORITHMS,
          clockTolerance: OUTSIDE_TOKEN.clockSkewSeconds,
          requiredClaims: ["exp"],
          currentDate: at
        }),
      catch: (error) => new OutsideTokenRefused({ message: verificationProblem(error) })
    })
    const payload = verified.payload
    if (!trusts.some((trust) => audienceHolds(payload, trust))) {
      return yield* refuse("The token's aud is not the audience of any trust in its issuer.")
    }
    const named = options.silicon === undefined ? Option.none() : yield* findNamedSilicon(options.silicon)
    if (options.silicon !== undefined && Option.isNone(named)) return yield* refuse("No Silicon has the id named in silicon.")
    const met = trustsMet(payload, trusts).filter((trust) =>
      Option.match(named, { onNone: () => true, onSome: (silicon) => silicon.uuid === trust.silicon_uuid })
    )
    const siliconUuids = [...new Set(met.map((trust) => trust.silicon_uuid))]
    const [siliconUuid] = siliconUuids
    if (siliconUuid === undefined) return yield* refuse("The token's claims do not meet every condition of a trust.")
    if (siliconUuids.length > 1) {
      return yield* refuse("Several Silicons trust this token; name one with the silicon parameter (its si: id or uuid).")
    }
    const silicon = yield* Effect.flatMap(SiliconsRepo, (silicons) => silicons.find(siliconUuid))
    if (Option.isNone(silicon)) return yield* refuse("The trusting Silicon no longer exists.")
    yield* signinEligibility(silicon.value).pipe(Effect.mapError((refused) => new OutsideTokenRefused({ message: refused.message })))
    const issuer = yield* TokenIssuer
    return yield* issuer.signIn({
      accountUuid: siliconUuid,
      clientLabel: options.clientLabel === undefined ? null : options.clientLabel.slice(0, CLIENT_LABEL_LIMIT),
      method: "federation",
      now: at,
      expiresAt: federatedSigninEnd(at, payload.exp ?? 0)
    })
  }).pipe(Effect.withSpan("outsideTokenSignIn"))
