import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"
import { VerificationChannel } from "./VerificationChallenge.ts"

/** A challenge as stored; times in epoch milliseconds. */
export interface StoredChallenge {
  readonly id: string
  readonly purpose: string
  readonly channel: VerificationChannel
  readonly destination: string
  readonly codeDigest: string
  readonly expiresAtMillis: number
  readonly resendAvailableAtMillis: number
  readonly used: boolean
}

/** A code as written by a send or a resend. */
export interface CodeSent {
  readonly codeDigest: string
  readonly sentAt: Date
  readonly expiresAt: Date
  readonly resendAvailableAt: Date
}

export interface NewChallenge extends CodeSent {
  readonly id: string
  readonly purpose: string
  readonly channel: VerificationChannel
  readonly destination: string
}

const ChallengeRow = Schema.Struct({
  id: Schema.String,
  purpose: Schema.String,
  channel: VerificationChannel,
  destination: Schema.String,
  code_digest: Schema.String,
  expires_at_ms: Schema.Number,
  resend_available_at_ms: Schema.Number,
  used: Schema.Boolean
})

const CountRow = Schema.Struct({ count: Schema.Number })

const decodeChallengeRows = rowsDecoder(ChallengeRow)
const decodeCountRows = rowsDecoder(CountRow)

const toStored = (row: typeof ChallengeRow.Type): StoredChallenge => ({
  id: row.id,
  purpose: row.purpose,
  channel: row.channel,
  destination: row.destination,
  codeDigest: row.code_digest,
  expiresAtMillis: row.expires_at_ms,
  resendAvailableAtMillis: row.resend_available_at_ms,
  used: row.used
})

/** SQL for `verification_challenges`. Times are passed in (from `Clock`), never taken from `now()`. */
export const makeChallengeStore = (sql: SqlClient.SqlClient) => {
  const insert = (challenge: NewChallenge): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`
      INSERT INTO verification_challenges
        (id, purpose, channel, destination, code_digest, created_at, code_sent_at, expires_at, resend_available_at)
      VALUES (
        ${challenge.id}, ${challenge.purpose}, ${challenge.channel}, ${challenge.destination},
        ${challenge.codeDigest}, ${challenge.sentAt}, ${challenge.sentAt}, ${challenge.expiresAt},
        ${challenge.resendAvailableAt}
      )
    `)

  const select = (id: string, forUpdate: boolean): Effect.Effect<StoredChallenge | undefined, SqlError> =>
    sql`
      SELECT id, purpose, channel, destination, code_digest,
        (extract(epoch FROM expires_at) * 1000)::float8 AS expires_at_ms,
        (extract(epoch FROM resend_available_at) * 1000)::float8 AS resend_available_at_ms,
        (used_at IS NOT NULL) AS used
      FROM verification_challenges
      WHERE id = ${id}
      ${sql.literal(forUpdate ? "FOR UPDATE" : "")}
    `.pipe(Effect.flatMap(decodeChallengeRows), Effect.map((rows) => rows[0] && toStored(rows[0])))

  /** Reads a challenge. */
  const find = (id: string) => select(id, false)

  /** Reads a challenge and holds its row until the transaction ends, so checks and writes on it serialize. */
  const lock = (id: string) => select(id, true)

  /** Puts a new code in place of the current one: the old code stops working. */
  const replaceCode = (id: string, code: CodeSent): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`
      UPDATE verification_challenges SET
        code_digest = ${code.codeDigest},
        code_sent_at = ${code.sentAt},
        expires_at = ${code.expiresAt},
        resend_available_at = ${code.resendAvailableAt}
      WHERE id = ${id}
    `)

  const markUsed = (id: string, at: Date): Effect.Effect<void, SqlError> =>
    Effect.asVoid(sql`UPDATE verification_challenges SET used_at = ${at} WHERE id = ${id}`)

  /** Deletes challenges that expired before `cutoff`; returns how many went. */
  const deleteExpiredBefore = (cutoff: Date): Effect.Effect<number, SqlError> =>
    sql`
      WITH deleted AS (DELETE FROM verification_challenges WHERE expires_at < ${cutoff} RETURNING 1)
      SELECT count(*)::float8 AS count FROM deleted
    `.pipe(Effect.flatMap(decodeCountRows), Effect.map((rows) => rows[0]?.count ?? 0))

  return { insert, find, lock, replaceCode, markUsed, deleteExpiredBefore } as const
}

export type ChallengeStore = ReturnType<typeof makeChallengeStore>
