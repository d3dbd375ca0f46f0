import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { randomToken } from "@platform/crypto"
import { Effect } from "effect"

/** The event types spec 1 names that this service records so far. */
export type AccountEventType =
  | "account.id_changed"
  | "account.updated"
  | "account.deleted"
  | "silicon.custodian.accepted"
  | "silicon.stk_rotated"

/**
 * Writes one event to the outbox; call it inside the transaction that makes the change it reports.
 *
 * Database failures: SqlError is left to that caller, whose transaction ends with it.
 */
export const recordEvent = (sql: SqlClient.SqlClient, event: {
  readonly type: AccountEventType
  readonly accountUuid: string
  readonly occurredAt: Date
  readonly data: Record<string, unknown>
}): Effect.Effect<void, SqlError> =>
  Effect.asVoid(sql`
    INSERT INTO account_events (id, type, account_uuid, occurred_at, data)
    VALUES (${randomToken("evt_", 16)}, ${event.type}, ${event.accountUuid}, ${event.occurredAt},
            ${JSON.stringify(event.data)}::jsonb)
  `)
