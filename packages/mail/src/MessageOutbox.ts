import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { enqueue } from "@platform/queue"
import { Context, Effect, Layer } from "effect"
import type { OutgoingMessage } from "./OutgoingMessage.ts"
import { OutgoingMessages } from "./outgoingMessages.ts"

export interface MessageOutboxService {
  /**
   * Queues a message for delivery, due now. It uses the caller's SqlClient, so
   * inside the caller's `sql.withTransaction` it commits or rolls back with the
   * state change that caused it.
   */
  readonly enqueue: (message: OutgoingMessage) => Effect.Effect<void, SqlError, SqlClient.SqlClient>
}

export const enqueueMessage = (message: OutgoingMessage): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.asVoid(enqueue(OutgoingMessages, message))

export class MessageOutbox extends Context.Tag("@platform/mail/MessageOutbox")<MessageOutbox, MessageOutboxService>() {
  static readonly layer: Layer.Layer<MessageOutbox> = Layer.succeed(MessageOutbox, { enqueue: enqueueMessage })
}
