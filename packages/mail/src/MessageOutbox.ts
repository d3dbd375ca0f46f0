import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import type { OutgoingMessage } from "./OutgoingMessage.ts"

export interface MessageOutboxService {
  /**
   * Queues a message for delivery, due now. It uses the caller's SqlClient, so
   * inside the caller's `sql.withTransaction` it commits or rolls back with the
   * state change that caused it.
   */
  readonly enqueue: (message: OutgoingMessage) => Effect.Effect<void, SqlError, SqlClient.SqlClient>
}

export const enqueueMessage = (message: OutgoingMessage): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* sql`
      INSERT INTO outgoing_messages
        (id, recipient, channel, subject, body, code, status, attempts, next_attempt_at, created_at)
      VALUES (
        ${randomUUID()}, ${message.to}, ${message.channel}, ${message.subject}, ${message.text}, ${message.code},
        'pending', 0, ${now}, ${now}
      )
    `
  })

export class MessageOutbox extends Context.Tag("@platform/mail/MessageOutbox")<MessageOutbox, MessageOutboxService>() {
  static readonly layer: Layer.Layer<MessageOutbox> = Layer.succeed(MessageOutbox, { enqueue: enqueueMessage })
}
