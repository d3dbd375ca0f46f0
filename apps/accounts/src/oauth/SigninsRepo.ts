import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { Data, Duration, Effect, Option, Schema } from "effect"
import { ACCOUNT_COLUMNS, AccountRow } from "../accounts/AccountRow.ts"
import { FIRST_PARTY_CLIENT_ID } from "./AccessTokens.ts"
import { type AppSigninView, appSigninViewOf, decodeAppSigninViews } from "./AppAccountsRepo.ts"
import { SIGNIN_COLUMNS, SIGNIN_COLUMNS_OF_S, type SigninMethod, SigninRow } from "./Signin.ts"

/** Refresh tokens and the sign-ins they belong to last 900 days from the sign-in, not extended by refreshing. */
export const SIGNIN_LIFETIME = Duration.days(900)
export const REFRESH_TOKEN_PREFIX = "sar_"

export interface NewSignin {
  readonly accountUuid: string
  readonly clientId: string
  readonly clientLabel: string | null
  readonly method: SigninMethod
  readonly now: Date
  /** When the sign-in ends, when not the usual 900 days (a sign-in from an outside token). */
  readonly expiresAt?: Date
}

export type RotateResult = Data.TaggedEnum<{
  /**
   * With what the same statement read of the live sign-in: its account (`reading` "account"), or
   * the sign-in as its app sees it (`reading` "app"); none when there is nothing to read.
   */
  Rotated: {
    readonly signin: SigninRow
    readonly account: Option.Option<AccountRow>
    readonly appView: Option.Option<AppSigninView>
    readonly refreshToken: string
  }
  /** The token belongs to another client: nothing was spent (RFC 6749 §6). */
  WrongClient: {}
  /** The token was used before: the whole sign-in is now revoked. */
  Reused: {}
  Unknown: {}
  Revoked: {}
  Expired: {}
}>
export const RotateResult = Data.taggedEnum<RotateResult>()

/** A new sign-in's id. */
export const newSigninId = () => randomToken("sgn_", 16)
/** When a sign-in started at `now` ends. */
export const signinExpiry = (now: Date) => new Date(now.getTime() + Duration.toMillis(SIGNIN_LIFETIME))

const decodeSignins = Schema.decodeUnknown(Schema.Array(SigninRow))

/** `row_to_json` gives timestamps as text: turn them back into dates before decoding. */
const reviveDates = (json: unknown, columns: ReadonlyArray<string>): unknown => {
  if (typeof json !== "object" || json === null) return json
  const row = { ...(json as Record<string, unknown>) }
  for (const column of columns) {
    if (typeof row[column] === "string") row[column] = new Date(row[column])
  }
  return row
}
const SIGNIN_DATES = ["created_at", "expires_at", "last_used_at", "revoked_at"]
const ACCOUNT_DATES = ["created_at", "updated_at"]
const APP_VIEW_DATES = [...ACCOUNT_DATES, "signin_revoked_at", "signin_expires_at", "auth_time"]
const decodeAccounts = rowsDecoder(AccountRow)

/** What a rotation reads of the sign-in it keeps alive, in the same statement. */
export type RotationReading = "account" | "app"
const firstSignin = (rows: unknown) => Effect.map(Effect.orDie(decodeSignins(rows)), (decoded) => Option.fromNullable(decoded[0]))

/** The sign-in `signinId`: one statement on `signins` alone. */
export const signinById = (sql: SqlClient.SqlClient, signinId: string) =>
  sql`select ${sql.literal(SIGNIN_COLUMNS)} from signins where id = ${signinId}`

/**
 * Sign-ins and their rotating refresh tokens (stored as SHA-256 digests).
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class SigninsRepo extends Effect.Service<SigninsRepo>()("accounts/SigninsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insertRefreshToken = (signinId: string, now: Date) => {
      const token = randomToken(REFRESH_TOKEN_PREFIX)
      return Effect.as(
        sql`insert into refresh_tokens (token_hash, signin_id, created_at) values (${sha256Hex(token)}, ${signinId}, ${now})`,
        token
      )
    }

    const start = (input: NewSignin): Effect.Effect<{ signin: SigninRow; refreshToken: string }> =>
      sql.withTransaction(Effect.gen(function*() {
        const id = newSigninId()
        const expiresAt = input.expiresAt ?? signinExpiry(input.now)
        const rows = yield* sql`
          insert into signins (id, account_uuid, client_id, client_label, method, created_at, expires_at, last_used_at)
          values (${id}, ${input.accountUuid}, ${input.clientId}, ${input.clientLabel}, ${input.method},
                  ${input.now}, ${expiresAt}, ${input.now})
          returning ${sql.literal(SIGNIN_COLUMNS)}
        `
        const signin = Option.getOrThrow(yield* firstSignin(rows))
        const refreshToken = yield* insertRefreshToken(id, input.now)
        return { signin, refreshToken }
      })).pipe(Effect.orDie, Effect.withSpan("SigninsRepo.start"))

    const revokeSignin = (signinId: string, now: Date, reason: string): Effect.Effect<void> =>
      sql`update signins set revoked_at = ${now}, revoked_reason = ${reason} where id = ${signinId} and revoked_at is null`.pipe(
        Effect.orDie,
        Effect.asVoid
      )

    /**
     * Starts a browser session of the account site: a first-party sign-in with method `hosted`
     * whose cookie is kept as `cookieHash` (SHA-256).
     */
    const startBrowserSession = (accountUuid: string, cookieHash: string, at: Date): Effect.Effect<void> =>
      sql`
        INSERT INTO signins (id, account_uuid, client_id, client_label, method, session_cookie_hash, created_at, expires_at,
                             last_used_at)
        VALUES (${newSigninId()}, ${accountUuid}, ${FIRST_PARTY_CLIENT_ID}, 'Browser', 'hosted',
                ${cookieHash}, ${at}, ${signinExpiry(at)}, ${at})
      `.pipe(Effect.orDie, Effect.asVoid)

    /**
     * Uses a refresh token once, for the client its sign-in belongs to. The first use marks it
     * used and issues the next one; any later use — a replay, or the loser of two concurrent
     * uses — revokes the whole sign-in. Another client's use spends nothing.
     * The common case is one statement: claim the token, touch the live sign-in, insert the
     * next token, and answer the sign-in, atomically.
     */
    const rotate = (
      refreshToken: string,
      clientId: string,
      now: Date,
      reading: RotationReading = "account"
    ): Effect.Effect<RotateResult> =>
      Effect.gen(function*() {
        const hash = sha256Hex(refreshToken)
        const next = randomToken(REFRESH_TOKEN_PREFIX)
        const view = reading === "app"
          ? appSigninViewOf(sql, sql.literal("(SELECT id FROM live)"))
          : sql`SELECT ${sql.literal(ACCOUNT_COLUMNS)} FROM accounts WHERE uuid = (SELECT account_uuid FROM live)`
        const rows = yield* sql<{ claimed: boolean; signin: unknown; view: unknown }>`
          WITH claimed AS (
            UPDATE refresh_tokens SET used_at = ${now}
            WHERE token_hash = ${hash} AND used_at IS NULL
              AND signin_id IN (SELECT id FROM signins WHERE client_id = ${clientId})
            RETURNING signin_id
          ),
          live AS (
            UPDATE signins SET last_used_at = ${now}
            WHERE id = (SELECT signin_id FROM claimed) AND revoked_at IS NULL AND expires_at > ${now}
            RETURNING ${sql.literal(SIGNIN_COLUMNS)}
          ),
          inserted AS (
            INSERT INTO refresh_tokens (token_hash, signin_id, created_at)
            SELECT ${sha256Hex(next)}, id, ${now} FROM live
            RETURNING signin_id
          )
          SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
                 (SELECT row_to_json(live) FROM live WHERE EXISTS (SELECT 1 FROM inserted)) AS signin,
                 (SELECT row_to_json(view) FROM (${view}) view) AS view
        `
        const row = rows[0]
        if (row !== undefined && row.claimed && row.signin !== null) {
          const signin = Option.getOrThrow(yield* firstSignin([reviveDates(row.signin, SIGNIN_DATES)]))
          const account = row.view === null || reading === "app"
            ? Option.none()
            : Option.fromNullable((yield* decodeAccounts([reviveDates(row.view, ACCOUNT_DATES)]))[0])
          const appView = row.view === null || reading === "account"
            ? Option.none()
            : Option.fromNullable((yield* decodeAppSigninViews([reviveDates(row.view, APP_VIEW_DATES)]))[0])
          return RotateResult.Rotated({ signin, account, appView, refreshToken: next })
        }
        if (row !== undefined && row.claimed) {
          // Claimed, but its sign-in is revoked or over: the token is spent and nothing is issued.
          const signin = yield* firstSignin(
            yield* sql`SELECT ${sql.literal(SIGNIN_COLUMNS_OF_S)} FROM signins s JOIN refresh_tokens r ON r.signin_id = s.id WHERE r.token_hash = ${hash}`
          )
          return Option.isSome(signin) && signin.value.revoked_at === null ? RotateResult.Expired() : RotateResult.Revoked()
        }
        const known = yield* sql<{ signin_id: string; client_id: string }>`
          SELECT r.signin_id, s.client_id FROM refresh_tokens r JOIN signins s ON s.id = r.signin_id WHERE r.token_hash = ${hash}
        `
        if (known.length === 0) return RotateResult.Unknown()
        if (known[0]!.client_id !== clientId) return RotateResult.WrongClient()
        yield* revokeSignin(known[0]!.signin_id, now, "refresh_token_reused")
        return RotateResult.Reused()
      }).pipe(Effect.orDie, Effect.withSpan("SigninsRepo.rotate"))

    const find = (signinId: string): Effect.Effect<Option.Option<SigninRow>> =>
      Effect.flatMap(Effect.orDie(signinById(sql, signinId)), firstSignin)

    const findByRefreshToken = (refreshToken: string): Effect.Effect<Option.Option<SigninRow>> =>
      Effect.flatMap(
        Effect.orDie(sql`select ${sql.literal(SIGNIN_COLUMNS_OF_S)} from signins s join refresh_tokens r on r.signin_id = s.id where r.token_hash = ${
          sha256Hex(refreshToken)
        }`),
        firstSignin
      )

    const findBySessionCookie = (cookieHash: string): Effect.Effect<Option.Option<SigninRow>> =>
      Effect.flatMap(
        Effect.orDie(sql`select ${sql.literal(SIGNIN_COLUMNS)} from signins where session_cookie_hash = ${cookieHash}`),
        firstSignin
      )

    /** The account's live sign-ins, newest first: `limit + 1` of them after `after` (created_at ISO, id). */
    const listLive = (
      accountUuid: string,
      now: Date,
      limit: number,
      after: Option.Option<readonly [string, string]>
    ): Effect.Effect<ReadonlyArray<SigninRow>> => {
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([createdAt, id]) => sql`and (created_at, id) < (${new Date(createdAt)}, ${id})`
      })
      return Effect.flatMap(
        Effect.orDie(sql`
          select ${sql.literal(SIGNIN_COLUMNS)} from signins
          where account_uuid = ${accountUuid} and revoked_at is null and expires_at > ${now} ${position}
          order by created_at desc, id desc
          limit ${limit + 1}
        `),
        (rows) => Effect.orDie(decodeSignins(rows))
      )
    }

    /** Revokes one of the account's sign-ins; false when it has none of that id still live. */
    const revoke = (accountUuid: string, signinId: string, now: Date, reason: string): Effect.Effect<boolean> =>
      Effect.map(
        Effect.orDie(sql`
          update signins set revoked_at = ${now}, revoked_reason = ${reason}
          where id = ${signinId} and account_uuid = ${accountUuid} and revoked_at is null
          returning id
        `),
        (rows) => rows.length > 0
      )

    /** Revokes every live sign-in of the account; the ids of those it revoked. */
    const revokeAll = (accountUuid: string, now: Date, reason: string): Effect.Effect<ReadonlyArray<string>> =>
      Effect.map(
        Effect.orDie(sql<{ readonly id: string }>`
          update signins set revoked_at = ${now}, revoked_reason = ${reason}
          where account_uuid = ${accountUuid} and revoked_at is null
          returning id
        `),
        (rows) => rows.map((row) => row.id)
      )

    return {
      start,
      rotate,
      find,
      findByRefreshToken,
      findBySessionCookie,
      listLive,
      revoke,
      revokeAll,
      revokeSignin,
      startBrowserSession
    } as const
  })
}) {}
