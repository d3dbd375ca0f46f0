import { Data } from "effect"

/**
 * A message could not be handed over. The message names the cause (a status,
 * an error code) but never the message's text, its code or a credential, so it
 * may be logged and stored as the outbox row's `last_error`.
 */
export class MessageTransportError extends Data.TaggedError("MessageTransportError")<{
  readonly message: string
}> {}
