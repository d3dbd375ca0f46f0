import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { CodeChannel } from "../challenges/CodeChallenge.ts"

const SignupRow = Schema.Struct({
  channel: CodeChannel,
  destination: Schema.String,
  expires_at: Schema.DateFromSelf,
  completed: Schema.Boolean
})
export type StoredSignup = typeof SignupRow.Type
const decodeSignups = rowsDecoder(SignupRow)

/** SQL of `signup_sessions`. */
export class SignupSessionsRepo extends Effect.Service<SignupSessionsRepo>()("iam/SignupSessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (signup: {
        readonly digest: string
        readonly channel: CodeChannel
        readonly destination: string
        readonly challengeId: string
        readonly at: Date
        readonly expiresAt: Date
      }) =>
        sql`
          insert into signup_sessions (digest, channel, destination, challenge_id, created_at, expires_at)
          values (${signup.digest}, ${signup.channel}, ${signup.destination}, ${signup.challengeId}, ${signup.at}, ${signup.expiresAt})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Reads a signup session and holds its row to the end of the transaction: it completes once. */
      lock: (digest: string) =>
        sql`
          select channel, destination, expires_at, (completed_at is not null) as completed
          from signup_sessions where digest = ${digest} for update
        `.pipe(Effect.flatMap(decodeSignups), Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      complete: (digest: string, identityUuid: string, at: Date) =>
        sql`update signup_sessions set completed_at = ${at}, identity_uuid = ${identityUuid} where digest = ${digest}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Retention: sessions that expired before `cutoff`. */
      deleteExpiredBefore: (cutoff: Date) =>
        sql`delete from signup_sessions where expires_at < ${cutoff}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
