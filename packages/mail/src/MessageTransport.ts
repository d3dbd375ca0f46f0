import { Context, type Effect } from "effect"
import type { MessageTransportError } from "./MessageTransportError.ts"
import type { OutgoingMessage } from "./OutgoingMessage.ts"

export interface MessageTransportService {
  /** Hands one message to the provider (or the mailbox); succeeds once it is accepted. */
  readonly send: (message: OutgoingMessage) => Effect.Effect<void, MessageTransportError>
}

/** Where outgoing email and SMS go: SMTP, the development mailbox, or memory in tests. */
export class MessageTransport
  extends Context.Tag("@platform/mail/MessageTransport")<MessageTransport, MessageTransportService>()
{}
