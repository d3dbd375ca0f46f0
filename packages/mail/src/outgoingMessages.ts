import { queueTable } from "@platform/queue"
import { Schema } from "effect"
import { MessageChannel } from "./OutgoingMessage.ts"

/** A message as its row in `outgoing_messages` stores it: `to` in `recipient`, `text` in `body`. */
const StoredMessage = Schema.Struct({
  to: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("recipient")),
  channel: MessageChannel,
  subject: Schema.String,
  text: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("body")),
  code: Schema.NullOr(Schema.String)
})

/**
 * The outbox of email and SMS, made by MessageOutboxMigration: a row is `pending` until it is
 * `sent` (at `sent_at`) or given up (`failed`); once finished, its text and code are blanked.
 */
export const OutgoingMessages = queueTable({
  table: "outgoing_messages",
  payload: StoredMessage,
  doneStatus: "sent",
  doneAtColumn: "sent_at",
  eraseWhenFinished: ["body", "code"]
})
