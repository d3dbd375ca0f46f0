import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import * as jose from "jose"
import { AccountsConfig } from "../../config.ts"
import { now } from "@platform/service"
import { InvalidAssertion } from "../errors.ts"
import { SiliconKeys } from "../keys/SiliconKeys.ts"
import type { SiliconKeyRow } from "../keys/SiliconKey.ts"
import type { SiliconRow } from "../SiliconRow.ts"
import { findNamedSilicon } from "../identity/findNamedSilicon.ts"
import { SiliconsRepo } from "../SiliconsRepo.ts"
import { checkAssertionClaims } from "./assertionClaims.ts"
import { claimJti } from "./assertionJtis.ts"

const refuse = (message: string) => Effect.fail(new InvalidAssertion({ message }))
// One answer for an unknown Silicon, an unknown kid and a bad signature.
const NOT_SIGNED = "The assertion is not signed by a live key of the Silicon it names."

const decoded = (assertion: string) =>
  Either.try(() => ({ header: jose.decodeProtectedHeader(assertion), claims: jose.decodeJwt(assertion) }))

const signedBy = (assertion: string, key: SiliconKeyRow): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    try {
      await jose.compactVerify(assertion, await jose.importJWK(key.public_jwk, "EdDSA"), { algorithms: ["EdDSA"] })
      return true
    } catch {
      return false
    }
  })

/**
 * Key sign-in assertions (spec 1): a JWT signed with EdDSA by one of the
 * Silicon's live keys (the one named by kid, or any), naming the Silicon in
 * iss and sub, for the token endpoint, short-lived, with a jti used once
 * across every process. Says who signed; whether that Silicon may sign in
 * is the caller's question (`signinEligibility`).
 */
export class AssertionVerifier extends Effect.Service<AssertionVerifier>()("accounts/AssertionVerifier", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AccountsConfig
    const silicons = yield* SiliconsRepo
    const keys = yield* SiliconKeys
    const audience = `${config.publicUrl}/v1/oauth/token`

    const verify = (assertion: string): Effect.Effect<SiliconRow, InvalidAssertion> =>
      Effect.gen(function*() {
        const parts = decoded(assertion)
        if (Either.isLeft(parts)) return yield* refuse("The assertion is not a signed JWT.")
        const { claims, header } = parts.right
        if (header.alg !== "EdDSA") return yield* refuse("Assertions are signed with alg EdDSA (Ed25519).")
        if (header.kid !== undefined && typeof header.kid !== "string") return yield* refuse("kid must be a string.")
        if (typeof claims.iss !== "string" || claims.iss !== claims.sub) {
          return yield* refuse("iss and sub must both be present and equal: the Silicon's si: id or its uuid.")
        }
        const silicon = yield* findNamedSilicon(claims.iss).pipe(Effect.provideService(SiliconsRepo, silicons))
        if (Option.isNone(silicon)) return yield* refuse(NOT_SIGNED)
        const candidates = header.kid === undefined
          ? yield* keys.listLive(silicon.value.uuid)
          : Option.toArray(yield* keys.findLive(silicon.value.uuid, header.kid))
        const signed = yield* Effect.findFirst(candidates, (key) => signedBy(assertion, key))
        if (Option.isNone(signed)) return yield* refuse(NOT_SIGNED)
        const at = yield* now
        const accepted = checkAssertionClaims(claims, audience, at)
        if (Either.isLeft(accepted)) return yield* refuse(accepted.left)
        const fresh = yield* claimJti(silicon.value.uuid, accepted.right.jti, accepted.right.expiresAt, at).pipe(
          Effect.provideService(SqlClient.SqlClient, sql)
        )
        if (!fresh) return yield* refuse("This assertion's jti was used already; sign a new assertion with a new jti.")
        return silicon.value
      }).pipe(Effect.withSpan("AssertionVerifier.verify"))

    return { verify } as const
  }),
  dependencies: [SiliconsRepo.Default, SiliconKeys.Default]
}) {}
