import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { IdentityKind } from "../identities/Identity.ts"

export type LoginMethod = "code" | "silicon_token"

/** Who an access token speaks for, when the token, its session and its identity are all current. */
export interface LiveAccess {
  readonly session_id: string
  readonly identity_uuid: string
  readonly handle: string
  readonly kind: IdentityKind
}

/** IAM sessions and their tokens (digests only). */
export class SessionsRepo extends Effect.Service<SessionsRepo>()("iam/SessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insertSession: (session: {
        readonly id: string
        readonly identityUuid: string
        readonly method: LoginMethod
        readonly at: Date
        readonly expiresAt: Date
      }) =>
        sql`
          insert into iam_sessions (id, identity_uuid, method, created_at, expires_at, last_used_at)
          values (${session.id}, ${session.identityUuid}, ${session.method}, ${session.at}, ${session.expiresAt}, ${session.at})
        `.pipe(Effect.asVoid, Effect.orDie),
      insertRefreshToken: (token: { readonly digest: string; readonly sessionId: string; readonly generation: number; readonly at: Date }) =>
        sql`
          insert into iam_refresh_tokens (digest, session_id, generation, issued_at)
          values (${token.digest}, ${token.sessionId}, ${token.generation}, ${token.at})
        `.pipe(Effect.asVoid, Effect.orDie),
      insertAccessToken: (token: { readonly digest: string; readonly sessionId: string; readonly expiresAt: Date }) =>
        sql`
          insert into iam_access_tokens (digest, session_id, expires_at)
          values (${token.digest}, ${token.sessionId}, ${token.expiresAt})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Ends every open session of an identity (its credential changed or it left): their tokens stop at once. */
      endAllOf: (identityUuid: string, reason: string, at: Date) =>
        sql`
          update iam_sessions set ended_at = ${at}, end_reason = ${reason}
          where identity_uuid = ${identityUuid} and ended_at is null
        `.pipe(Effect.asVoid, Effect.orDie),
      /** One indexed statement: the token unexpired, its session open and unexpired, its identity active. */
      liveAccess: (digest: string, at: Date) =>
        sql<LiveAccess>`
          select s.id as session_id, i.uuid as identity_uuid, i.handle, i.kind
          from iam_access_tokens t
          join iam_sessions s on s.id = t.session_id
          join identities i on i.uuid = s.identity_uuid
          where t.digest = ${digest} and t.expires_at > ${at}
            and s.ended_at is null and s.expires_at > ${at} and i.status = 'active'
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie)
    }
  })
}) {}
