import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { Data, Duration, Effect, Option, Schema } from "effect"
import { columnsOf, rowsDecoder } from "@platform/database"

/** Authorization codes last 120 seconds and are single use (spec 1, Lifetimes). */
export const AUTHORIZATION_CODE_LIFETIME = Duration.seconds(120)
export const AUTHORIZATION_CODE_PREFIX = "sac_"

export interface NewAuthorizationCode {
  readonly appId: string
  readonly accountUuid: string
  /** Exactly as the authorize request sent it (after trimming): the token request must repeat it. */
  readonly redirectUri: string
  readonly codeChallenge: string | null
  readonly codeChallengeMethod: "S256" | "plain" | null
  /** Space-separated scopes granted. */
  readonly scope: string
  readonly nonce: string | null
  /** When the account last authenticated (OpenID Connect auth_time). */
  readonly authTime: Date
  readonly now: Date
}

export const AuthorizationCodeRow = Schema.Struct({
  code_hash: Schema.String,
  app_id: Schema.String,
  account_uuid: Schema.String,
  redirect_uri: Schema.String,
  code_challenge: Schema.NullOr(Schema.String),
  code_challenge_method: Schema.NullOr(Schema.Literal("S256", "plain")),
  scope: Schema.String,
  nonce: Schema.NullOr(Schema.String),
  auth_time: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  used_at: Schema.NullOr(Schema.DateFromSelf),
  signin_id: Schema.NullOr(Schema.String)
})
export type AuthorizationCodeRow = typeof AuthorizationCodeRow.Type

/** What presenting a code found. */
export type Redemption = Data.TaggedEnum<{
  /** First use, now spent: the caller checks client, redirect_uri and PKCE, then attaches the sign-in it starts. */
  Redeemed: { readonly code: AuthorizationCodeRow }
  /** Used before: the sign-in started from it (if any) must be revoked. */
  Reused: { readonly code: AuthorizationCodeRow }
  Expired: {}
  Unknown: {}
}>
export const Redemption = Data.taggedEnum<Redemption>()

const decodeCodes = rowsDecoder(AuthorizationCodeRow)
const CODE_COLUMNS = columnsOf(AuthorizationCodeRow.fields)

/**
 * Authorization codes, stored as SHA-256 digests.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class AuthorizationCodes extends Effect.Service<AuthorizationCodes>()("accounts/AuthorizationCodes", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** A new code for a completed sign-in; the value is returned once (it goes on the redirect). */
    const issue = (input: NewAuthorizationCode): Effect.Effect<string> => {
      const code = randomToken(AUTHORIZATION_CODE_PREFIX)
      const expiresAt = new Date(input.now.getTime() + Duration.toMillis(AUTHORIZATION_CODE_LIFETIME))
      return sql`
        INSERT INTO authorization_codes (code_hash, app_id, account_uuid, redirect_uri, code_challenge, code_challenge_method,
          scope, nonce, auth_time, created_at, expires_at)
        VALUES (${sha256Hex(code)}, ${input.appId}, ${input.accountUuid}, ${input.redirectUri}, ${input.codeChallenge},
          ${input.codeChallengeMethod}, ${input.scope}, ${input.nonce}, ${input.authTime}, ${input.now}, ${expiresAt})
      `.pipe(Effect.orDie, Effect.as(code))
    }

    /**
     * Spends a code in one statement: of concurrent redemptions exactly one
     * sees Redeemed; every other use (then or later) sees Reused.
     */
    const redeem = (code: string, now: Date): Effect.Effect<Redemption> =>
      Effect.gen(function*() {
        const hash = sha256Hex(code)
        const spent = yield* sql`
          UPDATE authorization_codes SET used_at = ${now}
          WHERE code_hash = ${hash} AND used_at IS NULL AND expires_at > ${now}
          RETURNING ${sql.literal(CODE_COLUMNS)}
        `.pipe(Effect.orDie, Effect.flatMap(decodeCodes))
        if (spent[0] !== undefined) return Redemption.Redeemed({ code: spent[0] })
        const found = yield* sql`SELECT ${sql.literal(CODE_COLUMNS)} FROM authorization_codes WHERE code_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCodes),
          Effect.map((rows) => Option.fromNullable(rows[0]))
        )
        if (Option.isNone(found)) return Redemption.Unknown()
        return found.value.used_at !== null ? Redemption.Reused({ code: found.value }) : Redemption.Expired()
      })

    /** Retention: codes 7 days after expiry (spec 1, Retention). */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM authorization_codes WHERE expires_at < ${before} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )

    return { issue, redeem, sweep } as const
  })
}) {}
