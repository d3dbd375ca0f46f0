import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Creates the table of outgoing messages. A row is `pending` until a worker
 * sends it (`sent`) or gives up (`failed`); `next_attempt_at` says when it is
 * due, `claimed_until` and `claim_token` mark the worker currently sending it.
 * Once a row is finished its `body` (the text) and `code` are blanked.
 */
export const MessageOutboxMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE outgoing_messages (
      id uuid PRIMARY KEY,
      recipient text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      subject text NOT NULL,
      body text,
      code text,
      status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempts integer NOT NULL CHECK (attempts >= 0),
      next_attempt_at timestamptz,
      claimed_until timestamptz,
      claim_token uuid,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      last_error text,
      CHECK (status <> 'pending' OR (body IS NOT NULL AND next_attempt_at IS NOT NULL)),
      CHECK (status = 'pending' OR (body IS NULL AND code IS NULL AND claimed_until IS NULL))
    )
  `
  yield* sql`
    CREATE INDEX outgoing_messages_due_idx ON outgoing_messages (next_attempt_at) WHERE status = 'pending'
  `
})
