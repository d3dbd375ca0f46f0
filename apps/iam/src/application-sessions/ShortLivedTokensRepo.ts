import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"

const SpentShortLivedToken = Schema.Struct({
  app_id: Schema.String,
  identity_uuid: Schema.String,
  parent_session_id: Schema.String,
  org_ids: Schema.Array(Schema.String),
  scopes: Schema.Array(Schema.String),
  expires_at: Schema.DateFromSelf,
  first_use: Schema.Boolean
})
export type SpentShortLivedToken = typeof SpentShortLivedToken.Type
const decodeSpent = rowsDecoder(SpentShortLivedToken)

/** Short-lived login tokens (digests only). Database failures are defects. */
export class ShortLivedTokensRepo extends Effect.Service<ShortLivedTokensRepo>()("iam/ShortLivedTokensRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (token: {
      readonly digest: string
      readonly appId: string
      readonly identityUuid: string
      readonly parentSessionId: string
      readonly orgIds: ReadonlyArray<string>
      readonly scopes: ReadonlyArray<string>
      readonly requestId: string
      readonly at: Date
      readonly expiresAt: Date
    }): Effect.Effect<void> =>
      sql`
        insert into application_short_lived_tokens
          (digest, app_id, identity_uuid, parent_session_id, org_ids, scopes, request_id, created_at, expires_at)
        values (${token.digest}, ${token.appId}, ${token.identityUuid}, ${token.parentSessionId},
          ${JSON.stringify(token.orgIds)}::jsonb, ${JSON.stringify(token.scopes)}::jsonb, ${token.requestId}, ${token.at}, ${token.expiresAt})
      `.pipe(Effect.asVoid, Effect.orDie)

    /** Spends the token in one statement: of any number of requests presenting it, one alone sees `first_use`. */
    const spend = (digest: string, at: Date): Effect.Effect<Option.Option<SpentShortLivedToken>> =>
      sql`
        with before as (
          select digest, used_at from application_short_lived_tokens where digest = ${digest} for update
        )
        update application_short_lived_tokens t set used_at = coalesce(t.used_at, ${at})
        from before where t.digest = before.digest
        returning t.app_id, t.identity_uuid, t.parent_session_id, t.org_ids, t.scopes, t.expires_at, before.used_at is null as first_use
      `.pipe(Effect.flatMap(decodeSpent), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Retention: tokens that expired before `cutoff`. */
    const deleteExpiredBefore = (cutoff: Date): Effect.Effect<void> =>
      sql`delete from application_short_lived_tokens where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)

    return { insert, spend, deleteExpiredBefore } as const
  })
}) {}
