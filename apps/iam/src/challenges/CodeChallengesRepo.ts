import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"

export const ChallengePurpose = Schema.Literal("login", "signup", "step_up")
export type ChallengePurpose = typeof ChallengePurpose.Type

const ChallengeRow = Schema.Struct({
  id: Schema.String,
  purpose: ChallengePurpose,
  subject: Schema.String,
  identity_uuid: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  email_code_digest: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  details: Schema.Unknown,
  expires_at: Schema.DateFromSelf,
  end_reason: Schema.NullOr(Schema.Literal("verified", "replaced"))
})
export type StoredChallenge = typeof ChallengeRow.Type

const decodeChallenges = rowsDecoder(ChallengeRow)

export interface NewChallenge {
  readonly id: string
  readonly purpose: ChallengePurpose
  readonly subject: string
  readonly identityUuid: string | null
  readonly email: string | null
  readonly emailCodeDigest: string | null
  readonly phone: string | null
  readonly details: unknown
  readonly at: Date
  readonly expiresAt: Date
}

/** SQL of `code_challenges`. */
export class CodeChallengesRepo extends Effect.Service<CodeChallengesRepo>()("iam/CodeChallengesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /**
       * Ends the subject's open challenge (its code stops working) and inserts the new one. The
       * subject's advisory lock, held to the end of the caller's transaction, keeps two at once from both staying open.
       */
      replace: (challenge: NewChallenge) =>
        Effect.gen(function*() {
          yield* sql`select pg_advisory_xact_lock(hashtextextended(${`code_challenge:${challenge.subject}`}, 0))`
          yield* sql`
            update code_challenges set ended_at = ${challenge.at}, end_reason = 'replaced'
            where subject = ${challenge.subject} and ended_at is null
          `
          yield* sql`
            insert into code_challenges (id, purpose, subject, identity_uuid, email, email_code_digest, phone, details,
              created_at, expires_at)
            values (${challenge.id}, ${challenge.purpose}, ${challenge.subject}, ${challenge.identityUuid},
              ${challenge.email}, ${challenge.emailCodeDigest}, ${challenge.phone}, ${JSON.stringify(challenge.details)}::jsonb,
              ${challenge.at}, ${challenge.expiresAt})
          `
        }).pipe(Effect.orDie),
      /** Reads a challenge and holds its row to the end of the transaction. */
      lock: (id: string) =>
        sql`
          select id, purpose, subject, identity_uuid, email, email_code_digest, phone, details, expires_at, end_reason
          from code_challenges where id = ${id} for update
        `.pipe(Effect.flatMap(decodeChallenges), Effect.map((rows) => rows[0]), Effect.orDie),
      markVerified: (id: string, at: Date) =>
        sql`update code_challenges set ended_at = ${at}, end_reason = 'verified' where id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Retention: challenges that expired before `cutoff`. */
      deleteExpiredBefore: (cutoff: Date) =>
        sql`delete from code_challenges where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
