import { SqlClient, type Statement } from "@effect/sql"
import { codeChallengeOf, isCodeVerifier } from "@platform/oauth"
import { randomToken, sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { Data, Effect, Option, Schema } from "effect"
import { AuthorizationCodeRow } from "./AuthorizationCodes.ts"
import { type IssuedSignin, SIGNIN_COLUMNS_OF_S, type SigninMethod, SigninRow } from "./Signin.ts"
import { newSigninId, REFRESH_TOKEN_PREFIX, signinExpiry, SigninsRepo } from "./SigninsRepo.ts"
import { APP_ACCOUNT_COLUMNS, appAccountJoins, AppAccountRow } from "./AppAccountsRepo.ts"

/** What starting an app sign-in gave: the sign-in with the account as the app sees it, or why not. */
export type CodeSignin = Data.TaggedEnum<{
  Started: {
    readonly signin: IssuedSignin
    readonly refreshToken: string
    readonly account: AppAccountRow
  }
  Refused: { readonly reason: "account_inactive" | "access_removed" }
}>
export const CodeSignin = Data.taggedEnum<CodeSignin>()

/** An authorization code as a token request presents it, with what the code must have been issued for. */
export interface PresentedCode {
  readonly code: string
  readonly clientId: string
  readonly redirectUri: string
  /** The code_verifier, if one was sent. */
  readonly verifier: string | undefined
  /** The client developer's codes must carry an S256 challenge. */
  readonly s256Only: boolean
}

/** What presenting a code did. Every outcome but Unknown and Expired has spent the code (or found it spent). */
export type CodeRedemption = Data.TaggedEnum<{
  Unknown: {}
  Expired: {}
  /** Used before, or by a redemption racing this one: the sign-in that use started must be revoked. */
  Reused: { readonly code: AuthorizationCodeRow }
  /** Spent now, but the request does not match the code (client, redirect_uri, PKCE): nothing started. */
  Mismatched: { readonly code: AuthorizationCodeRow }
  /** Spent now, but the account may not sign in to the app: nothing started. */
  Refused: { readonly code: AuthorizationCodeRow; readonly reason: "account_inactive" | "access_removed" }
  Started: { readonly code: AuthorizationCodeRow; readonly started: Extract<CodeSignin, { _tag: "Started" }> }
}>
export const CodeRedemption = Data.taggedEnum<CodeRedemption>()

const StartRow = Schema.Struct({
  ...AppAccountRow.fields,
  signin_id: Schema.NullOr(Schema.String),
  signin_expires_at: Schema.NullOr(Schema.DateFromSelf),
  membership_now: Schema.NullOr(AppAccountRow.fields.membership_status)
})
const decodeStarts = rowsDecoder(StartRow)

/** The code's own columns in a start row, prefixed: the account's have some of the same names. */
const CODE_PREFIX = "code_"
const CODE_FIELDS = Object.keys(AuthorizationCodeRow.fields)
const PRESENTED_CODE_COLUMNS = CODE_FIELDS.map((field) => `subject.${field} AS ${CODE_PREFIX}${field}`).join(", ")
const CodeStartRow = Schema.Struct({ claimed: Schema.Boolean, allowed: Schema.Boolean })
const decodeCodeStarts = rowsDecoder(CodeStartRow)
const decodeCode = Schema.decodeUnknown(AuthorizationCodeRow)
const codeOf = (row: Readonly<Record<string, unknown>>) =>
  decodeCode(Object.fromEntries(CODE_FIELDS.map((field) => [field, row[`${CODE_PREFIX}${field}`]])))

/** An app sign-in to start: for whom, what was granted, and how. */
export interface AppSigninStart {
  readonly appId: string
  readonly accountUuid: string
  readonly scope: string
  readonly authTime: Date
  readonly method: SigninMethod
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
     * One statement, so atomic. `subject` is a SELECT of at most one row naming the account
     * (account_uuid), what it grants (scope, auth_time) and whether the caller's own conditions hold
     * (allowed). The statement reads the account as the app sees it and, when the subject is allowed
     * and the account may sign in (active, access not removed), starts the app sign-in (900 days) with
     * its refresh token and grant, and makes or touches the membership (an imported one is claimed).
     * `claim`, when given, is a data-modifying statement that must return a row for the sign-in to
     * start (an authorization code spent); it sees the sign-in's id as `start` holds it.
     */
    const startStatement = (
      appId: string,
      method: SigninMethod,
      now: Date,
      subject: Statement.Fragment,
      claim: ((signinId: string) => Statement.Fragment) | undefined,
      extraColumns: string
    ) => {
      const signinId = newSigninId()
      const refreshToken = randomToken(REFRESH_TOKEN_PREFIX)
      const statement = sql`
        WITH subject AS (${subject}),
        account AS (
          SELECT ${sql.literal(APP_ACCOUNT_COLUMNS)}
          FROM subject JOIN accounts a ON a.uuid = subject.account_uuid ${appAccountJoins(sql, appId)}
        ),
        start AS (
          SELECT subject.account_uuid, subject.scope, subject.auth_time FROM subject, account
          WHERE subject.allowed AND account.status = 'active' AND account.membership_status IS DISTINCT FROM 'access_removed'
        ),
        claimed AS (${claim === undefined ? sql`SELECT 1` : claim(signinId)}),
        signin AS (
          INSERT INTO signins (id, account_uuid, client_id, client_label, method, created_at, expires_at, last_used_at)
          SELECT ${signinId}, start.account_uuid, ${appId}, NULL, ${method}, ${now}, ${signinExpiry(now)}, ${now}
          FROM start WHERE EXISTS (SELECT 1 FROM claimed)
          RETURNING id, expires_at
        ),
        refresh AS (
          INSERT INTO refresh_tokens (token_hash, signin_id, created_at) SELECT ${sha256Hex(refreshToken)}, id, ${now} FROM signin
        ),
        granted AS (
          INSERT INTO app_signins (signin_id, app_id, scope, auth_time) SELECT signin.id, ${appId}, start.scope, start.auth_time FROM signin, start
        ),
        membership AS (
          INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
          SELECT ${appId}, start.account_uuid, 'active', to_jsonb(array_remove(string_to_array(start.scope, ' '), '')), ${now}, ${now}
          FROM signin, start
          ON CONFLICT (app_id, account_uuid) DO UPDATE SET
            last_signin_at = EXCLUDED.last_signin_at,
            status = CASE WHEN memberships.status = 'imported' THEN 'active' ELSE memberships.status END
          RETURNING status
        )
        SELECT account.*, signin.id AS signin_id, signin.expires_at AS signin_expires_at,
          (SELECT status FROM membership) AS membership_now${sql.literal(extraColumns)}
        FROM subject JOIN account ON true LEFT JOIN signin ON true
      `
      return Effect.map(Effect.orDie(statement), (rows) => ({ rows, refreshToken }))
    }

    /** What a start row says: the sign-in started, or why not (access removed in a race is revoked at once). */
    const outcomeOf = (row: typeof StartRow.Type, refreshToken: string, now: Date): Effect.Effect<CodeSignin> =>
      Effect.gen(function*() {
        if (row.status !== "active") return CodeSignin.Refused({ reason: "account_inactive" })
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

    /** Starts an app sign-in for an account (the short-lived-token grant); see startStatement. */
    const startAppSignin = (start: AppSigninStart, now: Date): Effect.Effect<CodeSignin> =>
      Effect.gen(function*() {
        const subject = sql`
          SELECT ${start.accountUuid}::text AS account_uuid, ${start.scope}::text AS scope,
            ${start.authTime}::timestamptz AS auth_time, true AS allowed
        `
        const { refreshToken, rows } = yield* startStatement(start.appId, start.method, now, subject, undefined, "")
        const row = (yield* Effect.orDie(decodeStarts(rows)))[0]
        return row === undefined ? CodeSignin.Refused({ reason: "account_inactive" }) : yield* outcomeOf(row, refreshToken, now)
      })

    /**
     * Redeems an authorization code in one statement: spends it if it is unused and unexpired, and
     * starts the app sign-in (linked to the code) only if the request matches the code (the client it
     * was issued to, the same redirect_uri, the verifier its PKCE challenge asks for, RFC 7636 §4.6)
     * and the account may sign in. A mismatched request burns the code all the same. Of concurrent
     * redemptions exactly one spends the code; every other use sees Reused.
     */
    const redeemCode = (presented: PresentedCode, now: Date): Effect.Effect<CodeRedemption> =>
      Effect.gen(function*() {
        const { verifier } = presented
        const wellFormed = verifier !== undefined && isCodeVerifier(verifier)
        const hash = sha256Hex(presented.code)
        // The challenge each method would have made of this verifier; none for a malformed one, which answers none.
        const s256 = wellFormed ? codeChallengeOf(verifier, "S256") : null
        const plain = wellFormed ? codeChallengeOf(verifier, "plain") : null
        const subject = sql`
          SELECT c.*, COALESCE(
            c.app_id = ${presented.clientId} AND c.redirect_uri = ${presented.redirectUri}
            AND (c.code_challenge_method = 'S256' OR NOT ${presented.s256Only}::boolean)
            AND CASE
              WHEN c.code_challenge IS NULL OR c.code_challenge_method IS NULL THEN NOT ${verifier !== undefined}::boolean
              WHEN c.code_challenge_method = 'S256' THEN c.code_challenge = ${s256}::text
              ELSE c.code_challenge = ${plain}::text
            END, false) AS allowed
          FROM authorization_codes c WHERE c.code_hash = ${hash}
        `
        const claim = (signinId: string) => sql`
          UPDATE authorization_codes SET used_at = ${now}, signin_id = (SELECT ${signinId}::text FROM start)
          WHERE code_hash = ${hash} AND used_at IS NULL AND expires_at > ${now}
          RETURNING 1
        `
        const columns = `, ${PRESENTED_CODE_COLUMNS}, EXISTS (SELECT 1 FROM claimed) AS claimed, subject.allowed`
        const { refreshToken, rows } = yield* startStatement(presented.clientId, "hosted", now, subject, claim, columns)
        if (rows[0] === undefined) return CodeRedemption.Unknown()
        const row = (yield* Effect.orDie(decodeStarts(rows)))[0]!
        const { allowed, claimed } = (yield* Effect.orDie(decodeCodeStarts(rows)))[0]!
        const code = yield* Effect.orDie(codeOf(rows[0]))
        if (!claimed) {
          // Read before the claim: a code spent by a racing redemption still looks unused here.
          const expired = code.used_at === null && code.expires_at.getTime() <= now.getTime()
          return expired ? CodeRedemption.Expired() : CodeRedemption.Reused({ code })
        }
        if (!allowed) return CodeRedemption.Mismatched({ code })
        const outcome = yield* outcomeOf(row, refreshToken, now)
        return outcome._tag === "Started"
          ? CodeRedemption.Started({ code, started: outcome })
          : CodeRedemption.Refused({ code, reason: outcome.reason })
      })

    /**
     * Records a second use of a code and answers the sign-in it started. The
     * redemption that spent the code linked its sign-in in the same commit, and
     * this update waits for that commit: a use racing the first one finds it too.
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

    return { startAppSignin, redeemCode, markCodeReused, refreshTokenState } as const
  }),
  dependencies: [SigninsRepo.Default]
}) {}
