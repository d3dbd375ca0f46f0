import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import type { IdentityKind } from "../identities/Identity.ts"

export type LoginMethod = "code" | "silicon_token" | "sso"

/** Why a session ended (decisions.md, "Sessions"). */
export type EndReason =
  | "logout"
  | "revoked"
  | "revoked_all"
  | "refresh_reuse"
  | "identity_inactive"
  | "silicon_token_rotated"
  | "silicon_removed"
  | "sso_deprovisioned"

/** Who an access token speaks for, when the token, its session and its identity are all current. */
export interface LiveAccess {
  readonly session_id: string
  readonly identity_uuid: string
  readonly handle: string
  readonly kind: IdentityKind
}

const SessionRow = Schema.Struct({
  id: Schema.String,
  identity_uuid: Schema.String,
  method: Schema.Literal("code", "silicon_token", "sso"),
  created_at: Schema.DateFromSelf,
  last_used_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  ended_at: Schema.NullOr(Schema.DateFromSelf)
})
export type SessionRow = typeof SessionRow.Type
const SESSION_COLUMNS = "id, identity_uuid, method, created_at, last_used_at, expires_at, ended_at"
const decodeSessions = rowsDecoder(SessionRow)

const RefreshTokenRow = Schema.Struct({
  session_id: Schema.String,
  generation: Schema.Number,
  used: Schema.Boolean
})
const decodeRefreshTokens = rowsDecoder(RefreshTokenRow)

const IdRow = Schema.Struct({ id: Schema.String })
const decodeIds = rowsDecoder(IdRow)

/** IAM sessions and their tokens (digests only). */
export class SessionsRepo extends Effect.Service<SessionsRepo>()("iam/SessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])
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
      /** One indexed statement: the token unexpired, its session open and unexpired, its identity active. */
      liveAccess: (digest: string, at: Date) =>
        sql<LiveAccess>`
          select s.id as session_id, i.uuid as identity_uuid, i.handle, i.kind
          from iam_access_tokens t
          join iam_sessions s on s.id = t.session_id
          join identities i on i.uuid = s.identity_uuid
          where t.digest = ${digest} and t.expires_at > ${at}
            and s.ended_at is null and s.expires_at > ${at} and i.status = 'active'
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      /** The same for a session named by its id (the browser session cookie). */
      liveSession: (sessionId: string, at: Date) =>
        sql<LiveAccess>`
          select s.id as session_id, i.uuid as identity_uuid, i.handle, i.kind
          from iam_sessions s
          join identities i on i.uuid = s.identity_uuid
          where s.id = ${sessionId} and s.ended_at is null and s.expires_at > ${at} and i.status = 'active'
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      /** The refresh token with this digest: its session, its place in the family, whether it was spent. */
      refreshToken: (digest: string) =>
        sql`
          select session_id, generation, (used_at is not null) as used from iam_refresh_tokens where digest = ${digest}
        `.pipe(Effect.flatMap(decodeRefreshTokens), Effect.map(first), Effect.orDie),
      /** Reads a session and holds its row to the end of the transaction: the refreshes of one family run one at a time. */
      lockSession: (sessionId: string) =>
        sql`select ${sql.literal(SESSION_COLUMNS)} from iam_sessions where id = ${sessionId} for update`.pipe(
          Effect.flatMap(decodeSessions),
          Effect.map(first),
          Effect.orDie
        ),
      spendRefreshToken: (digest: string, at: Date) =>
        sql`update iam_refresh_tokens set used_at = ${at} where digest = ${digest}`.pipe(Effect.asVoid, Effect.orDie),
      touchSession: (sessionId: string, at: Date) =>
        sql`update iam_sessions set last_used_at = ${at} where id = ${sessionId}`.pipe(Effect.asVoid, Effect.orDie),
      /** Ends one open session; false when it was not open. Its access and refresh tokens stop with it. */
      endSession: (sessionId: string, at: Date, reason: EndReason) =>
        sql`
          update iam_sessions set ended_at = ${at}, end_reason = ${reason}
          where id = ${sessionId} and ended_at is null
          returning id
        `.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.length === 1), Effect.orDie),
      /** Ends every open session of an identity; their ids. */
      endSessionsOf: (identityUuid: string, at: Date, reason: EndReason) =>
        sql`
          update iam_sessions set ended_at = ${at}, end_reason = ${reason}
          where identity_uuid = ${identityUuid} and ended_at is null
          returning id
        `.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.map((row) => row.id)), Effect.orDie),
      /** The identity's session with this id, when it is open and unexpired. */
      openSessionOf: (identityUuid: string, sessionId: string, at: Date) =>
        sql`
          select ${sql.literal(SESSION_COLUMNS)} from iam_sessions
          where id = ${sessionId} and identity_uuid = ${identityUuid} and ended_at is null and expires_at > ${at}
        `.pipe(Effect.flatMap(decodeSessions), Effect.map(first), Effect.orDie),
      /** A page of the identity's open sessions, newest first, after a keyset position (created_at, id). */
      openSessionsOf: (identityUuid: string, at: Date, limit: number, after: Option.Option<readonly [string, string]>) => {
        const position = Option.match(after, {
          onNone: () => sql``,
          onSome: ([createdAt, id]) => sql`and (created_at, id) < (${new Date(createdAt)}, ${id})`
        })
        return sql`
          select ${sql.literal(SESSION_COLUMNS)} from iam_sessions
          where identity_uuid = ${identityUuid} and ended_at is null and expires_at > ${at} ${position}
          order by created_at desc, id desc
          limit ${limit + 1}
        `.pipe(Effect.flatMap(decodeSessions), Effect.orDie)
      }
    }
  })
}) {}
