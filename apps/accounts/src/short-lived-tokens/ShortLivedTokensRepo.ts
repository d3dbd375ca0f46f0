import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { Duration, Effect, Option, Schema } from "effect"

/** Spec 1, Lifetimes: 120 seconds, single use, one app. */
export const SHORT_LIVED_TOKEN_LIFETIME = Duration.seconds(120)
export const SHORT_LIVED_TOKEN_PREFIX = "slt_"

const SpentToken = Schema.Struct({
  silicon_uuid: Schema.String,
  app_id: Schema.String,
  scope: Schema.String,
  expires_at: Schema.DateFromSelf,
  first_use: Schema.Boolean
})
export type SpentToken = typeof SpentToken.Type
const decodeSpent = rowsDecoder(SpentToken)

const AllowList = Schema.Struct({ app_ids: Schema.Array(Schema.String), updated_at: Schema.DateFromSelf })
export type AllowList = typeof AllowList.Type
const decodeAllowLists = rowsDecoder(AllowList)

/**
 * Short-lived tokens and the custodians' allow-lists.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class ShortLivedTokensRepo extends Effect.Service<ShortLivedTokensRepo>()("accounts/ShortLivedTokensRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** A new token for one app; only its digest is stored. */
    const mint = (input: { readonly siliconUuid: string; readonly appId: string; readonly scope: string; readonly now: Date }) =>
      Effect.gen(function*() {
        const token = randomToken(SHORT_LIVED_TOKEN_PREFIX)
        const expiresAt = new Date(input.now.getTime() + Duration.toMillis(SHORT_LIVED_TOKEN_LIFETIME))
        yield* sql`
          INSERT INTO short_lived_tokens (token_hash, silicon_uuid, app_id, scope, created_at, expires_at)
          VALUES (${sha256Hex(token)}, ${input.siliconUuid}, ${input.appId}, ${input.scope}, ${input.now}, ${expiresAt})
        `.pipe(Effect.orDie)
        return { token, expiresAt }
      })

    /**
     * Spends the token in one statement, so of any number of processes presenting it one alone sees
     * `first_use`; a later use finds it spent. The caller checks app and expiry: a token presented by
     * the wrong app or too late is spent all the same.
     */
    const spend = (token: string, now: Date): Effect.Effect<Option.Option<SpentToken>> =>
      sql`
        WITH before AS (SELECT token_hash, used_at FROM short_lived_tokens WHERE token_hash = ${sha256Hex(token)} FOR UPDATE)
        UPDATE short_lived_tokens t SET used_at = COALESCE(t.used_at, ${now})
        FROM before WHERE t.token_hash = before.token_hash
        RETURNING t.silicon_uuid, t.app_id, t.scope, t.expires_at, before.used_at IS NULL AS first_use
      `.pipe(Effect.orDie, Effect.flatMap(decodeSpent), Effect.map((rows) => Option.fromNullable(rows[0])))

    const allowList = (siliconUuid: string): Effect.Effect<Option.Option<AllowList>> =>
      sql`SELECT app_ids, updated_at FROM silicon_app_allow_lists WHERE silicon_uuid = ${siliconUuid}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeAllowLists),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** Sets the allow-list (null: any app). */
    const setAllowList = (siliconUuid: string, appIds: ReadonlyArray<string> | null, now: Date): Effect.Effect<void> =>
      (appIds === null
        ? sql`DELETE FROM silicon_app_allow_lists WHERE silicon_uuid = ${siliconUuid}`
        : sql`
          INSERT INTO silicon_app_allow_lists (silicon_uuid, app_ids, updated_at)
          VALUES (${siliconUuid}, ${JSON.stringify(appIds)}::jsonb, ${now})
          ON CONFLICT (silicon_uuid) DO UPDATE SET app_ids = EXCLUDED.app_ids, updated_at = EXCLUDED.updated_at
        `).pipe(Effect.orDie, Effect.asVoid)

    /** Retention: tokens 7 days after expiry (spec 1, Retention). */
    const sweep = (expiredBefore: Date): Effect.Effect<number> =>
      sql`DELETE FROM short_lived_tokens WHERE expires_at < ${expiredBefore} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )

    return { mint, spend, allowList, setAllowList, sweep } as const
  })
}) {}
