import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import { MessageChannel, type OutgoingMessage } from "./OutgoingMessage.ts"
import { rowsDecoder } from "@platform/database"

/** A pending row a worker has claimed, with everything needed to send it. */
export const ClaimedRow = Schema.Struct({
  id: Schema.String,
  recipient: Schema.String,
  channel: MessageChannel,
  subject: Schema.String,
  body: Schema.String,
  code: Schema.NullOr(Schema.String),
  attempts: Schema.Number
})
export type ClaimedRow = typeof ClaimedRow.Type

export const messageOf = (row: ClaimedRow): OutgoingMessage => ({
  to: row.recipient,
  channel: row.channel,
  subject: row.subject,
  text: row.body,
  code: row.code
})

/** Rows that do not match are a broken database contract, hence a defect rather than a typed error. */
const decodeClaimedRows = rowsDecoder(ClaimedRow)

/**
 * Claims up to `limit` due rows whose earlier claim (if any) has expired, in one
 * statement: `FOR UPDATE SKIP LOCKED` keeps concurrent workers off each other's rows.
 */
export const claimDueRows = (
  sql: SqlClient.SqlClient,
  claim: { readonly now: Date; readonly claimedUntil: Date; readonly token: string; readonly limit: number }
): Effect.Effect<ReadonlyArray<ClaimedRow>, SqlError> =>
  sql`
    UPDATE outgoing_messages AS message
    SET claimed_until = ${claim.claimedUntil}, claim_token = ${claim.token}
    FROM (
      SELECT id FROM outgoing_messages
      WHERE status = 'pending' AND next_attempt_at <= ${claim.now}
        AND (claimed_until IS NULL OR claimed_until <= ${claim.now})
      ORDER BY next_attempt_at, created_at
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE message.id = due.id
    RETURNING message.id::text AS id, message.recipient, message.channel, message.subject,
      message.body, message.code, message.attempts
  `.pipe(Effect.flatMap(decodeClaimedRows))

/** Changes to a claimed row apply only while this worker's claim is the current one. */
interface ClaimRef {
  readonly id: string
  readonly token: string
}

export const markSent = (
  sql: SqlClient.SqlClient,
  row: ClaimRef & { readonly now: Date }
): Effect.Effect<void, SqlError> =>
  Effect.asVoid(sql`
    UPDATE outgoing_messages SET
      status = 'sent', attempts = attempts + 1, sent_at = ${row.now}, body = NULL, code = NULL,
      next_attempt_at = NULL, claimed_until = NULL, claim_token = NULL, last_error = NULL
    WHERE id = ${row.id} AND claim_token = ${row.token}
  `)

export const scheduleRetry = (
  sql: SqlClient.SqlClient,
  row: ClaimRef & { readonly nextAttemptAt: Date; readonly error: string }
): Effect.Effect<void, SqlError> =>
  Effect.asVoid(sql`
    UPDATE outgoing_messages SET
      attempts = attempts + 1, next_attempt_at = ${row.nextAttemptAt}, last_error = ${row.error},
      claimed_until = NULL, claim_token = NULL
    WHERE id = ${row.id} AND claim_token = ${row.token}
  `)

export const markFailed = (
  sql: SqlClient.SqlClient,
  row: ClaimRef & { readonly error: string }
): Effect.Effect<void, SqlError> =>
  Effect.asVoid(sql`
    UPDATE outgoing_messages SET
      status = 'failed', attempts = attempts + 1, body = NULL, code = NULL, last_error = ${row.error},
      next_attempt_at = NULL, claimed_until = NULL, claim_token = NULL
    WHERE id = ${row.id} AND claim_token = ${row.token}
  `)
