import { Schema } from "effect"

/** How a message reaches its recipient. */
export const MessageChannel = Schema.Literal("email", "sms")
export type MessageChannel = typeof MessageChannel.Type

/**
 * One email or SMS to send. `code` is the six-digit verification code when the
 * message carries one (else null), so that the development mailbox can show it
 * and the outbox can blank it once the message has gone.
 */
export const OutgoingMessage = Schema.Struct({
  to: Schema.String,
  channel: MessageChannel,
  subject: Schema.String,
  text: Schema.String,
  code: Schema.NullOr(Schema.String)
})
export interface OutgoingMessage extends Schema.Schema.Type<typeof OutgoingMessage> {}
