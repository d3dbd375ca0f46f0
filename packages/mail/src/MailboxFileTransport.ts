import { Clock, Effect, Layer } from "effect"
import { appendFile, mkdir } from "node:fs/promises"
import { dirname } from "node:path"
import { MessageTransport, type MessageTransportService } from "./MessageTransport.ts"
import { MessageTransportError } from "./MessageTransportError.ts"
import type { OutgoingMessage } from "./OutgoingMessage.ts"

/** One line of the development mailbox, in the order the contract lists the fields. */
const mailboxLine = (message: OutgoingMessage, sentAtMillis: number): string =>
  JSON.stringify({
    to: message.to,
    channel: message.channel,
    subject: message.subject,
    text: message.text,
    code: message.code,
    sent_at: new Date(sentAtMillis).toISOString()
  }) + "\n"

/**
 * The development mailbox: appends each message as one JSON line to `path`,
 * creating its directory. Appends in this process take turns, and each line is
 * one `O_APPEND` write, so lines never interleave. The file is created readable
 * by its owner only, since it holds sign-in codes.
 */
export const makeMailboxFileTransport = (path: string): Effect.Effect<MessageTransportService> =>
  Effect.map(Effect.makeSemaphore(1), (turn) => ({
    send: (message) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        turn.withPermits(1)(
          Effect.tryPromise({
            try: async () => {
              await mkdir(dirname(path), { recursive: true })
              await appendFile(path, mailboxLine(message, now), { encoding: "utf8", mode: 0o600 })
            },
            catch: (error) =>
              new MessageTransportError({
                message: `could not append to the development mailbox: ${error instanceof Error ? error.message : String(error)}`
              })
          })
        ))
  }))

export const MailboxFileTransport = {
  layer: (path: string): Layer.Layer<MessageTransport> => Layer.effect(MessageTransport, makeMailboxFileTransport(path))
}
