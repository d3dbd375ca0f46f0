import { SqlClient } from "@effect/sql"
import { noStore, pageOf, pageRequest } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { Unauthenticated } from "../auth/errors.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { IamBrowserSession } from "../sessions/IamBrowserSession.ts"
import { IamSessions, type RefreshRefusalReason } from "../sessions/IamSessions.ts"
import { SessionsRepo } from "../sessions/SessionsRepo.ts"
import { SessionPosition } from "./Api.ts"
import { SessionNotFound } from "./errors.ts"

const refusedRefresh: Record<RefreshRefusalReason, string> = {
  unknown: "This refresh token is not one IAM issued.",
  ended: "This refresh token's session has ended.",
  reused: "This refresh token was already used: its session is now ended, and every token of it stopped.",
  identity_inactive: "This identity is no longer active: its session has ended."
}

const sessionNotFound = () => new SessionNotFound({ message: "You have no open session with that id." })

export const SessionsLive = compiledGroup(IamApi, "sessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* IamSessions
    const repo = yield* SessionsRepo
    const cookie = yield* IamBrowserSession
    const sql = yield* SqlClient.SqlClient
    const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
    return handlers
      .handle("current", () =>
        Effect.map(CurrentIdentity, (identity) => ({
          session_id: identity.sessionId,
          identity: { uuid: identity.uuid, id: identity.id, kind: identity.kind }
        })))
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          const { after, limit } = yield* pageRequest(SessionPosition, urlParams)
          const rows = yield* repo.openSessionsOf(identity.uuid, yield* now, limit, after)
          const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
          return {
            items: page.items.map((row) => ({
              session_id: row.id,
              method: row.method,
              created_at: row.created_at.toISOString(),
              last_used_at: row.last_used_at.toISOString(),
              expires_at: row.expires_at.toISOString(),
              current: row.id === identity.sessionId
            })),
            next_cursor: page.nextCursor
          }
        }))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          const open = yield* repo.openSessionOf(identity.uuid, path.session_id, yield* now)
          if (open._tag === "None") return yield* sessionNotFound()
          yield* Effect.flatMap(StepUpGuard, (guard) => guard.spend({ action: "account.session_revoke", resourceId: path.session_id }))
          if (!(yield* sessions.end(path.session_id, "revoked"))) return yield* sessionNotFound()
          if (path.session_id === identity.sessionId) yield* cookie.clear
        }).pipe(inTransaction))
      .handle("revokeAll", () =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          yield* Effect.flatMap(StepUpGuard, (guard) => guard.spend({ action: "account.sessions_revoke_all", resourceId: identity.uuid }))
          const ended = yield* sessions.endAll(identity.uuid, "revoked_all")
          yield* cookie.clear
          return { ended_sessions: ended }
        }).pipe(inTransaction))
      .handle("logout", () =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          yield* sessions.end(identity.sessionId, "logout")
          yield* cookie.clear
        }))
  })).pipe(
    Layer.provide(IamBearerLive),
    Layer.provide([IamSessions.Default, IamBrowserSession.Default, SessionsRepo.Default])
  )

export const SessionRefreshLive = compiledGroup(IamApi, "sessionRefresh", (handlers) =>
  Effect.map(IamSessions, (sessions) =>
    handlers.handle("refresh", ({ payload }) =>
      Effect.gen(function*() {
        yield* noStore
        yield* carriesNewSecret
        return yield* sessions.refresh(payload.refresh_token).pipe(
          Effect.mapError((refused) =>
            new Unauthenticated({ message: refusedRefresh[refused.reason], hint: "Log in again." })
          )
        )
      }), { uninterruptible: true })
  )).pipe(Layer.provide(IamSessions.Default))
