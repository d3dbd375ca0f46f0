import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"

const TokenRow = Schema.Struct({
  identity_uuid: Schema.String,
  action: Schema.String,
  resource_id: Schema.String,
  application_id: Schema.NullOr(Schema.String),
  expires_at: Schema.DateFromSelf,
  used: Schema.Boolean
})
export type StoredStepUpToken = typeof TokenRow.Type
const decodeTokens = rowsDecoder(TokenRow)

export interface StepUpBinding {
  readonly identityUuid: string
  readonly action: string
  readonly resourceId: string
  readonly applicationId: string | null
}

/** SQL of `step_up_tokens`. */
export class StepUpTokensRepo extends Effect.Service<StepUpTokensRepo>()("iam/StepUpTokensRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (token: StepUpBinding & { readonly digest: string; readonly challengeId: string; readonly at: Date; readonly expiresAt: Date }) =>
        sql`
          insert into step_up_tokens (digest, identity_uuid, action, resource_id, application_id, challenge_id, created_at, expires_at)
          values (${token.digest}, ${token.identityUuid}, ${token.action}, ${token.resourceId}, ${token.applicationId},
            ${token.challengeId}, ${token.at}, ${token.expiresAt})
        `.pipe(Effect.asVoid, Effect.orDie),
      /**
       * Spends the token in one statement, when it is bound to exactly this and is unused and unexpired:
       * of two spends at once only one finds it. Joins the caller's transaction.
       */
      spend: (digest: string, binding: StepUpBinding, at: Date) =>
        sql`
          update step_up_tokens set used_at = ${at}
          where digest = ${digest} and used_at is null and expires_at > ${at}
            and identity_uuid = ${binding.identityUuid} and action = ${binding.action} and resource_id = ${binding.resourceId}
            and application_id is not distinct from ${binding.applicationId}
          returning digest
        `.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      find: (digest: string) =>
        sql`
          select identity_uuid, action, resource_id, application_id, expires_at, (used_at is not null) as used
          from step_up_tokens where digest = ${digest}
        `.pipe(Effect.flatMap(decodeTokens), Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      /** Retention: tokens that expired before `cutoff`. */
      deleteExpiredBefore: (cutoff: Date) =>
        sql`delete from step_up_tokens where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
