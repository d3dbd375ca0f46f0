import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import type { Identity } from "../identities/Identity.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { LIFETIMES } from "../lifetimes.ts"
import type { CredentialPair } from "./CredentialPair.ts"
import { type LiveAccess, type LoginMethod, SessionsRepo } from "./SessionsRepo.ts"
import { newAccessToken, newRefreshToken, newSessionId } from "./tokenFormats.ts"

const plus = (at: Date, duration: Duration.Duration) => new Date(at.getTime() + Duration.toMillis(duration))

/** Opening IAM sessions after a login, and reading who a bearer access token speaks for. */
export class IamSessions extends Effect.Service<IamSessions>()("iam/IamSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* SessionsRepo
    const identities = yield* IdentitiesRepo
    const sql = yield* SqlClient.SqlClient

    /** A fresh access token for a session (at login and at each refresh). */
    const issueAccess = (sessionId: string, at: Date) =>
      Effect.gen(function*() {
        const token = newAccessToken()
        yield* repo.insertAccessToken({ digest: sha256Hex(token), sessionId, expiresAt: plus(at, LIFETIMES.accessToken) })
        return token
      })

    return {
      issueAccess,
      /**
       * A new session (refresh family) for an identity accounts has just vouched for: the projection
       * is refreshed, and the credential pair is shown here once. Run it in the login's transaction.
       */
      open: (identity: Identity, method: LoginMethod) =>
        Effect.gen(function*() {
          const at = yield* now
          yield* identities.remember(identity)
          const sessionId = newSessionId()
          const expiresAt = plus(at, LIFETIMES.sessionFamily)
          yield* repo.insertSession({ id: sessionId, identityUuid: identity.uuid, method, at, expiresAt })
          const refreshToken = newRefreshToken()
          yield* repo.insertRefreshToken({ digest: sha256Hex(refreshToken), sessionId, generation: 1, at })
          const accessToken = yield* issueAccess(sessionId, at)
          const pair: CredentialPair = {
            access_token: accessToken,
            refresh_token: refreshToken,
            token_type: "Bearer",
            expires_in: Duration.toSeconds(LIFETIMES.accessToken),
            session_id: sessionId,
            session_expires_at: expiresAt.toISOString()
          }
          return pair
        }).pipe(sql.withTransaction, Effect.orDie),
      /** Who a bearer access token speaks for; none when it is unknown, expired, or its session or identity ended. */
      authenticate: (accessToken: string): Effect.Effect<Option.Option<LiveAccess>> =>
        Effect.flatMap(now, (at) => repo.liveAccess(sha256Hex(accessToken), at))
    }
  }),
  dependencies: [SessionsRepo.Default, IdentitiesRepo.Default]
}) {}
