import { InMemoryTransport, MessageDelivery, type OutgoingMessage } from "@platform/mail"
import { Effect, Layer, Schedule } from "effect"

/** The test mailbox: queued mail and SMS delivered by the real worker to memory, where tests read them. */
export const testMailbox = MessageDelivery.layer().pipe(Layer.provideMerge(InMemoryTransport.layer))

/** The newest message delivered to `to`, waiting (up to a minute, on a busy machine) for the delivery worker. */
export const lastMessageTo = (to: string): Effect.Effect<OutgoingMessage, never, InMemoryTransport> =>
  InMemoryTransport.sent.pipe(
    Effect.flatMap((sent) => {
      const mine = sent.filter((message) => message.to === to)
      return mine.length > 0 ? Effect.succeed(mine[mine.length - 1]!) : Effect.fail("not yet" as const)
    }),
    Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("60 seconds"))),
    Effect.orDieWith(() => new Error(`no message reached ${to}`))
  )

/** How many messages reached `to` so far. */
export const messagesTo = (to: string) =>
  Effect.map(InMemoryTransport.sent, (sent) => sent.filter((message) => message.to === to).length)

/** The newest message to `to` once more than `seen` have reached it (the outbox sends after the request). */
export const messageAfter = (to: string, seen: number): Effect.Effect<OutgoingMessage, never, InMemoryTransport> =>
  Effect.flatMap(messagesTo(to), (count) => count > seen ? lastMessageTo(to) : Effect.fail("waiting" as const)).pipe(
    Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("60 seconds"))),
    Effect.orDieWith(() => new Error(`no new message reached ${to}`))
  )
