import { SqlClient, type Statement } from "@effect/sql"
import { exactCache, rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { AccountRow } from "../accounts/AccountRow.ts"
import { AppStatus, IdTokenSigningAlg } from "../apps/AppRecord.ts"
import { SIGNIN_VIEW_CACHE_CAPACITY, SIGNIN_VIEW_CHANNEL } from "./signinViewChannel.ts"

/** Everything an app-facing answer needs of one account, read in one statement. */
export const AppAccountRow = Schema.Struct({
  ...AccountRow.fields,
  custodian_uuid: Schema.NullOr(Schema.String),
  custodian_handle: Schema.NullOr(Schema.String),
  /** The primary (so verified) email and phone. */
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  membership_status: Schema.NullOr(Schema.Literal("active", "imported", "access_removed")),
  app_status: Schema.NullOr(AppStatus),
  /** How the app's id tokens are signed: read with the account, so issuing tokens reads nothing more. */
  app_id_token_alg: Schema.NullOr(IdTokenSigningAlg)
})
export type AppAccountRow = typeof AppAccountRow.Type

/** An app sign-in, what it was granted, and its account as `AppAccountRow`. */
export const AppSigninView = Schema.Struct({
  ...AppAccountRow.fields,
  signin_client_id: Schema.String,
  signin_revoked_at: Schema.NullOr(Schema.DateFromSelf),
  signin_expires_at: Schema.DateFromSelf,
  app_id: Schema.String,
  scope: Schema.String,
  auth_time: Schema.DateFromSelf
})
export type AppSigninView = typeof AppSigninView.Type

/** Rows of AppSigninView, decoded. */
export const decodeAppSigninViews = rowsDecoder(AppSigninView)

/** An account `a` with its custodian, primary contacts, and its membership of an app and that app's status. */
export const APP_ACCOUNT_COLUMNS = `a.uuid, a.kind, a.handle, a.display_name, a.pfp_url, a.dob::text AS dob, a.timezone, a.status,
  a.created_at, a.updated_at, a.version, c.uuid AS custodian_uuid, c.handle AS custodian_handle,
  (SELECT e.address FROM account_emails e WHERE e.account_uuid = a.uuid AND e.is_primary) AS email,
  (SELECT p.address FROM account_phones p WHERE p.account_uuid = a.uuid AND p.is_primary) AS phone,
  m.status AS membership_status, ap.status AS app_status, ap.id_token_signed_response_alg AS app_id_token_alg`

/** The joins behind APP_ACCOUNT_COLUMNS; `appId` is a value or a column of the enclosing query. */
export const appAccountJoins = (sql: SqlClient.SqlClient, appId: string | Statement.Fragment) =>
  sql`
    LEFT JOIN silicons s ON s.account_uuid = a.uuid
    LEFT JOIN accounts c ON c.uuid = s.custodian_uuid
    LEFT JOIN memberships m ON m.app_id = ${appId} AND m.account_uuid = a.uuid
    LEFT JOIN apps ap ON ap.app_id = ${appId}
  `

/** The AppSigninView of a sign-in; `signinId` is a value or an expression of the enclosing query. */
export const appSigninViewOf = (sql: SqlClient.SqlClient, signinId: string | Statement.Fragment) =>
  sql`
    SELECT ${sql.literal(APP_ACCOUNT_COLUMNS)}, si.client_id AS signin_client_id, si.revoked_at AS signin_revoked_at,
      si.expires_at AS signin_expires_at, g.app_id, g.scope, g.auth_time
    FROM signins si
    JOIN app_signins g ON g.signin_id = si.id
    JOIN accounts a ON a.uuid = si.account_uuid ${appAccountJoins(sql, sql.literal("g.app_id"))}
    WHERE si.id = ${signinId}
  `

/**
 * App sign-ins read with their account as the app sees it. On a PostgreSQL server the views are
 * kept in an exact cache: the tables they read announce every committed change
 * (SigninViewChangesMigration), and each lookup first makes sure every change committed before it
 * has been heard, so a revocation, a removed access or a changed profile is seen at once by every
 * process.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class AppAccountsRepo extends Effect.Service<AppAccountsRepo>()("accounts/AppAccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** One statement for what userinfo, introspection and proofs read of a sign-in. */
    const findBySignin = yield* exactCache({
      channel: SIGNIN_VIEW_CHANNEL,
      capacity: SIGNIN_VIEW_CACHE_CAPACITY,
      // New sign-ins are not announced (SigninViewChangesMigration): an absent one is read again.
      keep: Option.isSome,
      load: (signinId: string): Effect.Effect<Option.Option<AppSigninView>> =>
        appSigninViewOf(sql, signinId).pipe(
          Effect.orDie,
          Effect.flatMap(decodeAppSigninViews),
          Effect.map((rows) => Option.fromNullable(rows[0]))
        )
    })

    return { findBySignin } as const
  })
}) {}
