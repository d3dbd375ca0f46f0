import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { Duration, Effect, Schema } from "effect"

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

    /** Retention: codes 7 days after expiry (spec 1, Retention). */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql`DELETE FROM authorization_codes WHERE expires_at < ${before} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )

    return { issue, sweep } as const
  })
}) {}
