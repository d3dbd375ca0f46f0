import type { MessageChannel } from "./OutgoingMessage.ts"
import type { MessageTransportService } from "./MessageTransport.ts"

/** One transport that hands each message to the transport of its channel. */
export const routeByChannel = (
  transports: { readonly [channel in MessageChannel]: MessageTransportService }
): MessageTransportService => ({
  send: (message) => transports[message.channel].send(message)
})
