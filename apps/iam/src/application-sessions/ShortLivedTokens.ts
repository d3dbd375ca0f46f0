import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { now } from "@platform/service"
import { Duration, Effect, Option, Schema } from "effect"
import { LIFETIMES } from "../lifetimes.ts"
import { newShortLivedToken } from "./tokenFormats.ts"

/** What the login handoff asks for one application (spec 2: the application receives only what was approved and consented). */
export interface ShortLivedTokenRequest {
  readonly identityUuid: string
  /** The IAM session the person approved from: the application session ends with it. */
  readonly parentSessionId: string
  readonly appId: string
  readonly orgIds: ReadonlyArray<string>
  readonly scopes: ReadonlyArray<string>
  readonly requestId: string
}

/** Spec 2's SLT fields, as the callback fragment `slts=` carries them. */
export interface MintedShortLivedToken {
  readonly app_id: string
  readonly slt: string
  readonly expires_in: number
  readonly expires_at: string
  readonly request_id: string
}

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

/**
 * Short-lived login tokens (SLT): 2 minutes, single use, bound to one application. `mint` joins the caller's
 * transaction, so a batch login mints all its tokens or none.
 */
export class ShortLivedTokens extends Effect.Service<ShortLivedTokens>()("iam/ShortLivedTokens", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const mint = (request: ShortLivedTokenRequest): Effect.Effect<MintedShortLivedToken> =>
      Effect.gen(function*() {
        const at = yield* now
        const slt = newShortLivedToken()
        const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.shortLivedToken))
        yield* sql`
          insert into application_short_lived_tokens
            (digest, app_id, identity_uuid, parent_session_id, org_ids, scopes, request_id, created_at, expires_at)
          values (${sha256Hex(slt)}, ${request.appId}, ${request.identityUuid}, ${request.parentSessionId},
            ${JSON.stringify(request.orgIds)}::jsonb, ${JSON.stringify(request.scopes)}::jsonb, ${request.requestId}, ${at}, ${expiresAt})
        `.pipe(Effect.orDie)
        return {
          app_id: request.appId,
          slt,
          expires_in: Duration.toSeconds(LIFETIMES.shortLivedToken),
          expires_at: expiresAt.toISOString(),
          request_id: request.requestId
        }
      })

    /**
     * Spends the token in one statement, so of any number of requests presenting it one alone sees `first_use`.
     * The caller checks application and expiry: a token presented by another application or too late is spent all the same.
     */
    const spend = (slt: string, at: Date): Effect.Effect<Option.Option<SpentShortLivedToken>> =>
      sql`
        with before as (
          select digest, used_at from application_short_lived_tokens where digest = ${sha256Hex(slt)} for update
        )
        update application_short_lived_tokens t set used_at = coalesce(t.used_at, ${at})
        from before where t.digest = before.digest
        returning t.app_id, t.identity_uuid, t.parent_session_id, t.org_ids, t.scopes, t.expires_at, before.used_at is null as first_use
      `.pipe(Effect.flatMap(decodeSpent), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    return { mint, spend } as const
  })
}) {}
