import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { IdentityKind } from "../identities/Identity.ts"

/** An application session that is live now, with who it speaks for and the token it was found by. */
export const LiveSession = Schema.Struct({
  session_id: Schema.String,
  app_id: Schema.String,
  identity_uuid: Schema.String,
  handle: Schema.String,
  kind: IdentityKind,
  org_ids: Schema.Array(Schema.String),
  scopes: Schema.Array(Schema.String),
  /** The session's end: its own 900 days or its parent IAM session's, whichever comes first. */
  expires_at: Schema.DateFromSelf,
  token_issued_at: Schema.DateFromSelf,
  token_expires_at: Schema.DateFromSelf
})
export type LiveSession = typeof LiveSession.Type
const decodeLive = rowsDecoder(LiveSession)

export type SessionEnd = "revoked" | "refresh_token_reused"

/** Application sessions and their tokens (digests only). Database failures are defects. */
export class ApplicationSessionsRepo extends Effect.Service<ApplicationSessionsRepo>()("iam/ApplicationSessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The session, its parent IAM session and its subject all current, and the subject still an active member of at
     * least one organization chosen at login: what every use of an application credential needs.
     */
    const live = (at: Date) =>
      sql`a.ended_at is null and a.expires_at > ${at} and s.ended_at is null and s.expires_at > ${at} and i.status = 'active'
        and jsonb_array_length(o.org_ids) > 0`
    const sessionColumns = sql`
      a.id as session_id, a.app_id, a.identity_uuid, i.handle, i.kind, o.org_ids, a.scopes, least(a.expires_at, s.expires_at) as expires_at
    `
    /** The parent session, the subject, and the organizations of the session in which the subject is an active member now. */
    const parentJoins = sql`
      join iam_sessions s on s.id = a.parent_session_id
      join identities i on i.uuid = a.identity_uuid
      cross join lateral (
        select coalesce(jsonb_agg(chosen.id order by chosen.position), '[]'::jsonb) as org_ids
        from jsonb_array_elements_text(a.org_ids) with ordinality as chosen (id, position)
        join organization_members m on m.organization_id = chosen.id and m.identity_uuid = a.identity_uuid and m.status = 'active'
      ) o
    `
    const first = Effect.map((rows: ReadonlyArray<LiveSession>) => Option.fromNullable(rows[0]))

    /** The application's own unexpired access token, in a live session: one indexed statement. */
    const liveByAccessToken = (digest: string, appId: string, at: Date): Effect.Effect<Option.Option<LiveSession>> =>
      sql`
        select ${sessionColumns}, t.issued_at as token_issued_at, t.expires_at as token_expires_at
        from application_access_tokens t join application_sessions a on a.id = t.session_id ${parentJoins}
        where t.digest = ${digest} and t.expires_at > ${at} and a.app_id = ${appId} and ${live(at)}
      `.pipe(Effect.flatMap(decodeLive), Effect.orDie, first)

    /**
     * The introspection hot path in one statement: the application's secret digest (none: no such application)
     * and, when the access token is the application's own and live, its session.
     */
    const secretAndLiveAccess = (
      appId: string,
      digest: string,
      at: Date
    ): Effect.Effect<Option.Option<{ readonly secretDigest: string; readonly session: Option.Option<LiveSession> }>> =>
      sql<{ readonly application_secret_digest: string; readonly session_id: string | null }>`
        select ap.secret_digest as application_secret_digest, live.*
        from applications ap
        left join lateral (
          select ${sessionColumns}, t.issued_at as token_issued_at, t.expires_at as token_expires_at
          from application_access_tokens t join application_sessions a on a.id = t.session_id ${parentJoins}
          where t.digest = ${digest} and t.expires_at > ${at} and a.app_id = ap.app_id and ${live(at)}
        ) live on true
        where ap.app_id = ${appId}
      `.pipe(
        Effect.flatMap((rows) =>
          Effect.forEach(rows, (row) =>
            Effect.map(
              row.session_id === null ? Effect.succeed([]) : decodeLive([row]),
              (sessions) => ({ secretDigest: row.application_secret_digest, session: Option.fromNullable(sessions[0]) })
            ))
        ),
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** The application's own unused refresh token, in a live session. */
    const liveByRefreshToken = (digest: string, appId: string, at: Date): Effect.Effect<Option.Option<LiveSession>> =>
      sql`
        select ${sessionColumns}, r.issued_at as token_issued_at, least(a.expires_at, s.expires_at) as token_expires_at
        from application_refresh_tokens r join application_sessions a on a.id = r.session_id ${parentJoins}
        where r.digest = ${digest} and r.used_at is null and a.app_id = ${appId} and ${live(at)}
      `.pipe(Effect.flatMap(decodeLive), Effect.orDie, first)

    /** A live session by id; `lock` holds its row until the caller's transaction ends (refreshes of one family queue there). */
    const liveById = (sessionId: string, at: Date, lock: boolean): Effect.Effect<Option.Option<LiveSession>> =>
      sql`
        select ${sessionColumns}, a.created_at as token_issued_at, least(a.expires_at, s.expires_at) as token_expires_at
        from application_sessions a ${parentJoins}
        where a.id = ${sessionId} and ${live(at)} ${lock ? sql`for update of a` : sql``}
      `.pipe(Effect.flatMap(decodeLive), Effect.orDie, first)

    /** The session and application a token of either kind belongs to, live or not. */
    const sessionOfToken = (digest: string): Effect.Effect<Option.Option<{ readonly session_id: string; readonly app_id: string }>> =>
      sql<{ session_id: string; app_id: string }>`
        select a.id as session_id, a.app_id from application_sessions a
        where a.id = (select session_id from application_access_tokens where digest = ${digest})
           or a.id = (select session_id from application_refresh_tokens where digest = ${digest})
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * Opens the session if its parent IAM session is still live and belongs to the subject, who is still an active
     * member of one of the organizations (one statement); false when not.
     */
    const open = (session: {
      readonly id: string
      readonly appId: string
      readonly identityUuid: string
      readonly parentSessionId: string
      readonly orgIds: ReadonlyArray<string>
      readonly scopes: ReadonlyArray<string>
      readonly at: Date
      readonly expiresAt: Date
    }): Effect.Effect<boolean> =>
      sql`
        insert into application_sessions (id, app_id, identity_uuid, parent_session_id, org_ids, scopes, created_at, expires_at)
        select ${session.id}, ${session.appId}, s.identity_uuid, s.id, ${JSON.stringify(session.orgIds)}::jsonb,
          ${JSON.stringify(session.scopes)}::jsonb, ${session.at}, ${session.expiresAt}
        from iam_sessions s join identities i on i.uuid = s.identity_uuid
        where s.id = ${session.parentSessionId} and s.identity_uuid = ${session.identityUuid}
          and s.ended_at is null and s.expires_at > ${session.at} and i.status = 'active'
          and exists (
            select 1 from jsonb_array_elements_text(${JSON.stringify(session.orgIds)}::jsonb) as chosen (id)
            join organization_members m on m.organization_id = chosen.id and m.identity_uuid = s.identity_uuid and m.status = 'active'
          )
        returning id
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1))

    const insertRefreshToken = (token: { readonly digest: string; readonly sessionId: string; readonly generation: number; readonly at: Date }) =>
      sql`
        insert into application_refresh_tokens (digest, session_id, generation, issued_at)
        values (${token.digest}, ${token.sessionId}, ${token.generation}, ${token.at})
      `.pipe(Effect.asVoid, Effect.orDie)

    const insertAccessToken = (token: { readonly digest: string; readonly sessionId: string; readonly at: Date; readonly expiresAt: Date }) =>
      sql`
        insert into application_access_tokens (digest, session_id, issued_at, expires_at)
        values (${token.digest}, ${token.sessionId}, ${token.at}, ${token.expiresAt})
      `.pipe(Effect.asVoid, Effect.orDie)

    /** The session and application of a refresh token, used or not. */
    const refreshTokenOwner = (digest: string) =>
      sql<{ session_id: string; app_id: string }>`
        select r.session_id, a.app_id from application_refresh_tokens r join application_sessions a on a.id = r.session_id
        where r.digest = ${digest}
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Marks an unused refresh token used and answers its generation; none when it was used already. */
    const useRefreshToken = (digest: string, at: Date): Effect.Effect<Option.Option<number>> =>
      sql<{ generation: number }>`
        update application_refresh_tokens set used_at = ${at} where digest = ${digest} and used_at is null returning generation
      `.pipe(Effect.orDie, Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.generation)))

    const end = (sessionId: string, reason: SessionEnd, at: Date): Effect.Effect<void> =>
      sql`update application_sessions set ended_at = ${at}, end_reason = ${reason} where id = ${sessionId} and ended_at is null`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Retention: access tokens that expired before `cutoff` (refresh tokens stay with their session, for reuse detection). */
    const deleteAccessTokensExpiredBefore = (cutoff: Date): Effect.Effect<void> =>
      sql`delete from application_access_tokens where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)

    return {
      deleteAccessTokensExpiredBefore,
      secretAndLiveAccess,
      liveByAccessToken,
      liveByRefreshToken,
      liveById,
      sessionOfToken,
      open,
      insertRefreshToken,
      insertAccessToken,
      refreshTokenOwner,
      useRefreshToken,
      end
    } as const
  })
}) {}
