import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option } from "effect"
import { publishSignedOut, removeAppAccess } from "../events/membershipChanges.ts"
import { type MyAppPosition, MyAppRow } from "./MyApp.ts"
import { eventWriter } from "../events/EventWriter.ts"

const decodeRows = rowsDecoder(MyAppRow)

/** What the account's request did to one app's access. */
export type AccessChange = "done" | "no_membership"

/**
 * The apps an account is a member of (first-party clients left out: they are the service itself),
 * and the account's own moves on them: removing access, signing out of one app.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class AppAccessRepo extends Effect.Service<AppAccessRepo>()("accounts/AppAccessRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter

    const list = (accountUuid: string, limit: number, after: Option.Option<typeof MyAppPosition.Type>) => {
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([createdAt, appId]) => sql`AND (m.created_at, m.app_id) < (${new Date(createdAt)}, ${appId})`
      })
      return sql`
        SELECT m.app_id, ap.name, ap.logo_url, m.status, m.scopes, m.created_at, m.last_signin_at
        FROM memberships m JOIN apps ap ON ap.app_id = m.app_id AND ap.source <> 'first_party'
        WHERE m.account_uuid = ${accountUuid} ${position}
        ORDER BY m.created_at DESC, m.app_id DESC
        LIMIT ${limit + 1}
      `.pipe(Effect.flatMap(decodeRows), Effect.orDie)
    }

    const hasMembership = (accountUuid: string, appId: string) =>
      sql`
        SELECT 1 FROM memberships m JOIN apps ap ON ap.app_id = m.app_id AND ap.source <> 'first_party'
        WHERE m.account_uuid = ${accountUuid} AND m.app_id = ${appId} FOR UPDATE OF m
      `.pipe(Effect.map((rows) => rows.length > 0))

    /** Access removed (already-removed access is left as it is, with no second event). */
    const remove = (accountUuid: string, appId: string, at: Date): Effect.Effect<AccessChange> =>
      sql.withTransaction(Effect.gen(function*() {
        if (!(yield* hasMembership(accountUuid, appId))) return "no_membership" as const
        yield* removeAppAccess(events, { appId, accountUuid, at })
        return "done" as const
      })).pipe(Effect.orDie)

    /** Revokes the account's live sign-ins to the app; the app hears `membership.signed_out` when there were any. */
    const signOut = (
      accountUuid: string,
      appId: string,
      at: Date,
      reason: string
    ): Effect.Effect<Option.Option<number>> =>
      sql.withTransaction(Effect.gen(function*() {
        if (!(yield* hasMembership(accountUuid, appId))) return Option.none()
        const revoked = yield* sql<{ readonly id: string }>`
          UPDATE signins SET revoked_at = ${at}, revoked_reason = ${reason}
          WHERE account_uuid = ${accountUuid} AND revoked_at IS NULL AND expires_at > ${at}
            AND id IN (SELECT signin_id FROM app_signins WHERE app_id = ${appId})
          RETURNING id
        `
        const signinIds = revoked.map((row) => row.id)
        yield* publishSignedOut(events, { accountUuid, signinIds, reason, at })
        return Option.some(signinIds.length)
      })).pipe(Effect.orDie)

    return { list, remove, signOut } as const
  })
}) {}
