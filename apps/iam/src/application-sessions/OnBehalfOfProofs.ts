import { sha256Hex } from "@platform/crypto"
import type { OnBehalfOfProof, OnBehalfOfVerification } from "@platform/iam-app-api"
import { type OAuthError, oauthError } from "@platform/oauth"
import { epochSeconds, now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import { ApplicationsRepo } from "../applications/ApplicationsRepo.ts"
import { IamConfig } from "../config.ts"
import { LIFETIMES } from "../lifetimes.ts"
import { INACTIVE, subjectOf } from "./answers.ts"
import { ApplicationSessionsRepo } from "./ApplicationSessionsRepo.ts"
import { OnBehalfOfProofsRepo } from "./OnBehalfOfProofsRepo.ts"
import { newOnBehalfOfProof } from "./tokenFormats.ts"

/**
 * Proofs that an application acts for a subject now (decisions.md, "On-behalf-of proofs"): minted from a live
 * access token of the acting application, for one audience, verified once within 60 seconds.
 */
export class OnBehalfOfProofs extends Effect.Service<OnBehalfOfProofs>()("iam/OnBehalfOfProofs", {
  effect: Effect.gen(function*() {
    const proofs = yield* OnBehalfOfProofsRepo
    const sessions = yield* ApplicationSessionsRepo
    const applications = yield* ApplicationsRepo
    const { publicUrl } = yield* IamConfig

    const prove = (appId: string, accessToken: string, audience: string): Effect.Effect<OnBehalfOfProof, OAuthError> =>
      Effect.gen(function*() {
        if (Option.isNone(yield* applications.find(audience))) {
          return yield* oauthError("invalid_request", `No application has the id ${JSON.stringify(audience)} (parameter audience).`)
        }
        const at = yield* now
        const session = yield* sessions.liveByAccessToken(sha256Hex(accessToken), appId, at)
        if (Option.isNone(session)) {
          return yield* oauthError("invalid_grant", "The access_token is not a live access token of this application.")
        }
        const proof = newOnBehalfOfProof()
        const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.onBehalfOfProof))
        yield* proofs.insert({ digest: sha256Hex(proof), sessionId: session.value.session_id, audience, at, expiresAt })
        return {
          proof,
          expires_in: Duration.toSeconds(LIFETIMES.onBehalfOfProof),
          expires_at: expiresAt.toISOString(),
          audience,
          sub: session.value.identity_uuid
        }
      })

    /** Spends the proof whatever the answer; active only for its audience, in time, while its session is live. */
    const verify = (appId: string, proof: string): Effect.Effect<OnBehalfOfVerification> =>
      Effect.gen(function*() {
        const at = yield* now
        const spent = yield* proofs.spend(sha256Hex(proof), at)
        if (Option.isNone(spent)) return INACTIVE
        const { audience, expires_at, first_use, session_id } = spent.value
        if (!first_use || audience !== appId || expires_at <= at) return INACTIVE
        const session = yield* sessions.liveById(session_id, at, false)
        return Option.match(session, {
          onNone: () => INACTIVE,
          onSome: (live): OnBehalfOfVerification => ({
            active: true,
            ...subjectOf(live),
            client_id: live.app_id,
            exp: epochSeconds(expires_at),
            iss: publicUrl
          })
        })
      })

    return { prove, verify } as const
  }),
  dependencies: [OnBehalfOfProofsRepo.Default, ApplicationSessionsRepo.Default, ApplicationsRepo.Default]
}) {}
