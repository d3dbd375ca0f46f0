import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"

const SpentProof = Schema.Struct({
  session_id: Schema.String,
  audience: Schema.String,
  expires_at: Schema.DateFromSelf,
  first_use: Schema.Boolean
})
export type SpentProof = typeof SpentProof.Type
const decodeSpent = rowsDecoder(SpentProof)

/** On-behalf-of proofs (digests only). Database failures are defects. */
export class OnBehalfOfProofsRepo extends Effect.Service<OnBehalfOfProofsRepo>()("iam/OnBehalfOfProofsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (proof: {
      readonly digest: string
      readonly sessionId: string
      readonly audience: string
      readonly at: Date
      readonly expiresAt: Date
    }): Effect.Effect<void> =>
      sql`
        insert into on_behalf_of_proofs (digest, session_id, audience, created_at, expires_at)
        values (${proof.digest}, ${proof.sessionId}, ${proof.audience}, ${proof.at}, ${proof.expiresAt})
      `.pipe(Effect.asVoid, Effect.orDie)

    /** Spends the proof in one statement: of any number of verifications, one alone sees `first_use`. */
    const spend = (digest: string, at: Date): Effect.Effect<Option.Option<SpentProof>> =>
      sql`
        with before as (select digest, used_at from on_behalf_of_proofs where digest = ${digest} for update)
        update on_behalf_of_proofs p set used_at = coalesce(p.used_at, ${at})
        from before where p.digest = before.digest
        returning p.session_id, p.audience, p.expires_at, before.used_at is null as first_use
      `.pipe(Effect.flatMap(decodeSpent), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Retention: proofs that expired before `cutoff`. */
    const deleteExpiredBefore = (cutoff: Date): Effect.Effect<void> =>
      sql`delete from on_behalf_of_proofs where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)

    return { insert, spend, deleteExpiredBefore } as const
  })
}) {}
