import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { now } from "@platform/service"
import { Data, Duration, Effect, Option } from "effect"
import type { Identity } from "../identities/Identity.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { LIFETIMES } from "../lifetimes.ts"
import type { CredentialPair } from "./CredentialPair.ts"
import { type EndReason, type LiveAccess, type LoginMethod, SessionsRepo } from "./SessionsRepo.ts"
import { newAccessToken, newRefreshToken, newSessionId } from "./tokenFormats.ts"

const plus = (at: Date, duration: Duration.Duration) => new Date(at.getTime() + Duration.toMillis(duration))

/** Why a refresh token was refused; `reused` and `identity_inactive` also ended its session. */
export type RefreshRefusalReason = "unknown" | "ended" | "reused" | "identity_inactive"

export class RefreshRefused extends Data.TaggedError("RefreshRefused")<{ readonly reason: RefreshRefusalReason }> {}

type Refresh = Data.TaggedEnum<{
  Rotated: { readonly pair: CredentialPair }
  Refused: { readonly reason: RefreshRefusalReason }
}>
const Refresh = Data.taggedEnum<Refresh>()

/** Opening IAM sessions after a login, reading who a bearer access token speaks for, refreshing and ending them. */
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

    /** The next refresh token of the family and an access token beside it. */
    const issuePair = (sessionId: string, generation: number, expiresAt: Date, at: Date) =>
      Effect.gen(function*() {
        const refreshToken = newRefreshToken()
        yield* repo.insertRefreshToken({ digest: sha256Hex(refreshToken), sessionId, generation, at })
        const pair: CredentialPair = {
          access_token: yield* issueAccess(sessionId, at),
          refresh_token: refreshToken,
          token_type: "Bearer",
          expires_in: Duration.toSeconds(LIFETIMES.accessToken),
          session_id: sessionId,
          session_expires_at: expiresAt.toISOString()
        }
        return pair
      })

    /**
     * Decided under the session's row lock, so one family's refreshes run one at a time: the
     * token is read again after the lock, and of two requests with one token only the first
     * finds it unspent. A spent one is a reuse: the family is compromised and ends.
     */
    const rotate = (digest: string, at: Date): Effect.Effect<Refresh> =>
      Effect.gen(function*() {
        const found = yield* repo.refreshToken(digest)
        if (Option.isNone(found)) return Refresh.Refused({ reason: "unknown" })
        const session = yield* repo.lockSession(found.value.session_id)
        if (Option.isNone(session) || session.value.ended_at !== null || session.value.expires_at <= at) {
          return Refresh.Refused({ reason: "ended" })
        }
        const token = yield* repo.refreshToken(digest)
        if (Option.isNone(token) || token.value.used) {
          yield* repo.endSession(session.value.id, at, "refresh_reuse")
          return Refresh.Refused({ reason: "reused" })
        }
        const identity = yield* identities.find(session.value.identity_uuid)
        if (Option.isNone(identity) || identity.value.status !== "active") {
          yield* repo.endSession(session.value.id, at, "identity_inactive")
          return Refresh.Refused({ reason: "identity_inactive" })
        }
        yield* repo.spendRefreshToken(digest, at)
        yield* repo.touchSession(session.value.id, at)
        const pair = yield* issuePair(session.value.id, token.value.generation + 1, session.value.expires_at, at)
        return Refresh.Rotated({ pair })
      }).pipe(sql.withTransaction, Effect.orDie)

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
          return yield* issuePair(sessionId, 1, expiresAt, at)
        }).pipe(sql.withTransaction, Effect.orDie),
      /** Who a bearer access token speaks for; none when it is unknown, expired, or its session or identity ended. */
      authenticate: (accessToken: string): Effect.Effect<Option.Option<LiveAccess>> =>
        Effect.flatMap(now, (at) => repo.liveAccess(sha256Hex(accessToken), at)),
      /** Whom an open session speaks for (by its id: the browser session cookie, checked by its signature first). */
      live: (sessionId: string): Effect.Effect<Option.Option<LiveAccess>> =>
        Effect.flatMap(now, (at) => repo.liveSession(sessionId, at)),
      /**
       * Rotates a refresh token: the next one and a new access token, the presented one spent. The
       * refusals that end the family (a reuse, an identity no longer active) commit before they are answered.
       */
      refresh: (refreshToken: string): Effect.Effect<CredentialPair, RefreshRefused> =>
        Effect.flatMap(now, (at) => rotate(sha256Hex(refreshToken), at)).pipe(
          Effect.flatMap(Refresh.$match({
            Rotated: ({ pair }) => Effect.succeed(pair),
            Refused: ({ reason }) => Effect.fail(new RefreshRefused({ reason }))
          }))
        ),
      /** Ends a session now; false when it was not open. */
      end: (sessionId: string, reason: EndReason) => Effect.flatMap(now, (at) => repo.endSession(sessionId, at, reason)),
      /** Ends every open session of an identity; how many. */
      endAll: (identityUuid: string, reason: EndReason) =>
        Effect.flatMap(now, (at) => Effect.map(repo.endSessionsOf(identityUuid, at, reason), (ids) => ids.length))
    }
  }),
  dependencies: [SessionsRepo.Default, IdentitiesRepo.Default]
}) {}
