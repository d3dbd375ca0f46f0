import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { Data, Effect, Option, Schema } from "effect"
import type { AuthorizationCodeRow } from "./AuthorizationCodes.ts"
import { type IssuedSignin, SIGNIN_COLUMNS_OF_S, type SigninMethod, SigninRow } from "./Signin.ts"
import { newSigninId, REFRESH_TOKEN_PREFIX, signinExpiry, SigninsRepo } from "./SigninsRepo.ts"
import { APP_ACCOUNT_COLUMNS, appAccountJoins, AppAccountRow } from "./AppAccountsRepo.ts"

/** What redeeming a code started: the app sign-in with the account as the app sees it, or why not. */
export type CodeSignin = Data.TaggedEnum<{
  Started: {
    readonly signin: IssuedSignin
    readonly refreshToken: string
    readonly account: AppAccountRow
  }
  Refused: { readonly reason: "account_inactive" | "access_removed" }
}>
export const CodeSignin = Data.taggedEnum<CodeSignin>()

const CodeSigninRow = Schema.Struct({
  ...AppAccountRow.fields,
  signin_id: Schema.NullOr(Schema.String),
  signin_expires_at: Schema.NullOr(Schema.DateFromSelf),
  membership_now: Schema.NullOr(AppAccountRow.fields.membership_status)
})
const decodeCodeSignins = rowsDecoder(CodeSigninRow)

/** An app sign-in to start: for whom, what was granted, how, and the authorization code it comes from, if any. */
export interface AppSigninStart {
  readonly appId: string
  readonly accountUuid: string
  readonly scope: string
  readonly authTime: Date
  readonly method: SigninMethod
  readonly codeHash: string | null
}

/** What an app sign-in was granted (the `app_signins` row). */
export interface AppGrant {
  readonly app_id: string
  readonly scope: string
  readonly auth_time: Date
}

const RefreshTokenState = Schema.Struct({
  ...SigninRow.fields,
  token_created_at: Schema.DateFromSelf,
  used_at: Schema.NullOr(Schema.DateFromSelf)
})
const decodeRefreshStates = Schema.decodeUnknown(Schema.Array(RefreshTokenState))

/**
 * App sign-ins: the ones authorization codes start, what they were granted, and the membership they belong to.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class AppSigninsRepo extends Effect.Service<AppSigninsRepo>()("accounts/AppSigninsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signins = yield* SigninsRepo

    /**
     * One statement, so atomic: read the account as the app sees it and, when it may sign in (active,
     * access not removed), start the app sign-in (900 days) with its refresh token and grant, make or
     * touch the membership (an imported one is claimed), and link the code (if any) to the sign-in.
     */
    const startAppSignin = (start: AppSigninStart, now: Date): Effect.Effect<CodeSignin> =>
      Effect.gen(function*() {
        const code = { app_id: start.appId, account_uuid: start.accountUuid, scope: start.scope, auth_time: start.authTime }
        const signinId = newSigninId()
        const refreshToken = randomToken(REFRESH_TOKEN_PREFIX)
        const scopes = JSON.stringify(code.scope.split(" ").filter((scope) => scope !== ""))
        const rows = yield* sql`
          WITH account AS (
            SELECT ${sql.literal(APP_ACCOUNT_COLUMNS)}
            FROM accounts a ${appAccountJoins(sql, code.app_id)}
            WHERE a.uuid = ${code.account_uuid}
          ),
          signin AS (
            INSERT INTO signins (id, account_uuid, client_id, client_label, method, created_at, expires_at, last_used_at)
            SELECT ${signinId}, uuid, ${code.app_id}, NULL, ${start.method}, ${now}, ${signinExpiry(now)}, ${now} FROM account
            WHERE status = 'active' AND membership_status IS DISTINCT FROM 'access_removed'
            RETURNING id, expires_at
          ),
          refresh AS (
            INSERT INTO refresh_tokens (token_hash, signin_id, created_at) SELECT ${sha256Hex(refreshToken)}, id, ${now} FROM signin
          ),
          granted AS (
            INSERT INTO app_signins (signin_id, app_id, scope, auth_time) SELECT id, ${code.app_id}, ${code.scope}, ${code.auth_time} FROM signin
          ),
          membership AS (
            INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
            SELECT ${code.app_id}, ${code.account_uuid}, 'active', ${scopes}::jsonb, ${now}, ${now} FROM signin
            ON CONFLICT (app_id, account_uuid) DO UPDATE SET
              last_signin_at = EXCLUDED.last_signin_at,
              status = CASE WHEN memberships.status = 'imported' THEN 'active' ELSE memberships.status END
            RETURNING status
          ),
          linked AS (
            UPDATE authorization_codes SET signin_id = signin.id FROM signin WHERE code_hash = ${start.codeHash}
          )
          SELECT account.*, signin.id AS signin_id, signin.expires_at AS signin_expires_at,
            (SELECT status FROM membership) AS membership_now
          FROM account LEFT JOIN signin ON true
        `.pipe(Effect.flatMap(decodeCodeSignins), Effect.orDie)
        const row = rows[0]
        if (row === undefined || row.status !== "active") return CodeSignin.Refused({ reason: "account_inactive" })
        if (row.signin_id === null || row.signin_expires_at === null) return CodeSignin.Refused({ reason: "access_removed" })
        if (row.membership_now === "access_removed") {
          // Access was removed between this statement's snapshot and its membership write: no token leaves.
          yield* signins.revokeSignin(row.signin_id, now, "access_removed")
          return CodeSignin.Refused({ reason: "access_removed" })
        }
        const { membership_now, signin_expires_at, signin_id, ...account } = row
        return CodeSignin.Started({
          signin: { id: signin_id, account_uuid: account.uuid, expires_at: signin_expires_at },
          refreshToken,
          account: { ...account, membership_status: membership_now ?? account.membership_status }
        })
      })

    /** startAppSignin for a redeemed authorization code, linking the code to the sign-in. */
    const startFromCode = (code: AuthorizationCodeRow, now: Date): Effect.Effect<CodeSignin> =>
      startAppSignin({
        appId: code.app_id,
        accountUuid: code.account_uuid,
        scope: code.scope,
        authTime: code.auth_time,
        method: "hosted",
        codeHash: code.code_hash
      }, now)

    /**
     * Records a second use of a code and answers the sign-in it started, as
     * committed now: a use racing the first redemption finds none yet, and the
     * tokens issued after it stand (RFC 6749 §4.1.2 revokes those issued before).
     */
    const markCodeReused = (codeHash: string, now: Date): Effect.Effect<Option.Option<string>> =>
      sql<{ signin_id: string | null }>`
        UPDATE authorization_codes SET reused_at = COALESCE(reused_at, ${now}) WHERE code_hash = ${codeHash}
        RETURNING signin_id
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.signin_id)))

    /** A refresh token's sign-in and whether the token was used already (introspection). */
    const refreshTokenState = (tokenHash: string) =>
      sql`
        SELECT ${sql.literal(SIGNIN_COLUMNS_OF_S)}, r.created_at AS token_created_at, r.used_at FROM refresh_tokens r JOIN signins s ON s.id = r.signin_id WHERE r.token_hash = ${tokenHash}
      `.pipe(Effect.flatMap(decodeRefreshStates), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    return { startAppSignin, startFromCode, markCodeReused, refreshTokenState } as const
  }),
  dependencies: [SigninsRepo.Default]
}) {}
