import { SqlClient } from "@effect/sql"
import { constantTimeEqual, keyedDigest } from "@platform/crypto"
import { makeFailureStreaks } from "@platform/rate-limit"
import { Effect, Option } from "effect"
import { IamConfig } from "../config.ts"
import { SessionsRepo } from "../sessions/SessionsRepo.ts"
import { newSiliconToken } from "./siliconToken.ts"
import { SiliconCredentialsRepo } from "./SiliconCredentialsRepo.ts"
import { SILICON_TOKEN_STREAKS } from "./tokenStreaks.ts"

/** What a wrong guess is compared with when there is no Silicon or no token: the same work either way. */
const DUMMY_DIGEST = "0".repeat(64)

/** IAM Silicon tokens: issued and rotated (shown once), revoked, and checked at login. */
export class SiliconCredentials extends Effect.Service<SiliconCredentials>()("iam/SiliconCredentials", {
  effect: Effect.gen(function*() {
    const config = yield* IamConfig
    const repo = yield* SiliconCredentialsRepo
    const sessions = yield* SessionsRepo
    const streaks = makeFailureStreaks(yield* SqlClient.SqlClient, SILICON_TOKEN_STREAKS)
    const digest = keyedDigest(config.secretKey, "silicon_token")

    return {
      streaks,
      /**
       * A new token for the Silicon, returned here once; an earlier token stops, its sessions end
       * and its wrong-token streak is forgotten. Run it in the change's transaction.
       */
      issue: (siliconUuid: string, at: Date) =>
        Effect.gen(function*() {
          const token = newSiliconToken()
          yield* repo.put(siliconUuid, digest(token), at)
          yield* sessions.endSessionsOf(siliconUuid, at, "silicon_token_rotated")
          yield* streaks.forget(siliconUuid)
          return token
        }),
      /** The Silicon can no longer log in with a token, and its sessions end. */
      revoke: (siliconUuid: string, at: Date) =>
        Effect.zipRight(repo.remove(siliconUuid), sessions.endSessionsOf(siliconUuid, at, "silicon_removed")),
      /**
       * Whether `token` is the Silicon's current one. With no Silicon (none) or no token, a dummy
       * digest is compared instead, so an unknown id costs the same as a wrong token.
       */
      matches: (siliconUuid: Option.Option<string>, token: string) =>
        // The same round trip either way: an unknown Silicon's lookup finds no digest.
        Effect.map(
          repo.digestOf(Option.getOrElse(siliconUuid, () => "")),
          (stored) => {
            const right = constantTimeEqual(digest(token), Option.getOrElse(stored, () => DUMMY_DIGEST))
            return right && Option.isSome(stored)
          }
        )
    }
  }),
  dependencies: [SiliconCredentialsRepo.Default, SessionsRepo.Default]
}) {}
