import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { rowsDecoder } from "@platform/database"

const MembershipRow = Schema.Struct({
  status: Schema.Literal("active", "imported", "access_removed"),
  scopes: Schema.Array(Schema.String)
})
export type MembershipRow = typeof MembershipRow.Type

const decodeMemberships = rowsDecoder(MembershipRow)

/**
 * An account's membership with an app and the scopes it granted that app.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class Memberships extends Effect.Service<Memberships>()("accounts/Memberships", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = (appId: string, accountUuid: string): Effect.Effect<Option.Option<MembershipRow>> =>
      sql`SELECT status, scopes FROM memberships WHERE app_id = ${appId} AND account_uuid = ${accountUuid}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeMemberships),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** A sign-in to the app: the membership is active with exactly these scopes granted. */
    const signedIn = (appId: string, accountUuid: string, scopes: ReadonlyArray<string>, at: Date): Effect.Effect<void> =>
      sql`
        INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
        VALUES (${appId}, ${accountUuid}, 'active', ${JSON.stringify(scopes)}::jsonb, ${at}, ${at})
        ON CONFLICT (app_id, account_uuid) DO UPDATE
          SET status = 'active', scopes = EXCLUDED.scopes, last_signin_at = EXCLUDED.last_signin_at
      `.pipe(Effect.orDie, Effect.asVoid)

    return { find, signedIn } as const
  })
}) {}
