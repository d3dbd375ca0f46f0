import { Context, Effect, Layer, Ref } from "effect"
import { MessageTransport } from "./MessageTransport.ts"
import { MessageTransportError } from "./MessageTransportError.ts"
import type { OutgoingMessage } from "./OutgoingMessage.ts"

export interface InMemoryTransportControl {
  /** The messages accepted so far, oldest first. */
  readonly sent: Effect.Effect<ReadonlyArray<OutgoingMessage>>
  /** How many sends were attempted, failed ones included. */
  readonly attempts: Effect.Effect<number>
  /** Makes the next `count` sends fail with a MessageTransportError. */
  readonly failNext: (count: number) => Effect.Effect<void>
}

interface State {
  readonly sent: ReadonlyArray<OutgoingMessage>
  readonly attempts: number
  readonly failuresLeft: number
}

/** Test transport: keeps sent messages in memory and can be told to fail. Provides MessageTransport too. */
export class InMemoryTransport
  extends Context.Tag("@platform/mail/InMemoryTransport")<InMemoryTransport, InMemoryTransportControl>()
{
  static readonly layer: Layer.Layer<InMemoryTransport | MessageTransport> = Layer.effectContext(
    Effect.map(Ref.make<State>({ sent: [], attempts: 0, failuresLeft: 0 }), (state) => {
      const send = (message: OutgoingMessage) =>
        Effect.flatten(Ref.modify(state, (current): [Effect.Effect<void, MessageTransportError>, State] =>
          current.failuresLeft > 0
            ? [
              Effect.fail(new MessageTransportError({ message: "simulated transport failure" })),
              { ...current, attempts: current.attempts + 1, failuresLeft: current.failuresLeft - 1 }
            ]
            : [Effect.void, { ...current, attempts: current.attempts + 1, sent: [...current.sent, message] }]
        ))
      const control: InMemoryTransportControl = {
        sent: Effect.map(Ref.get(state), (current) => current.sent),
        attempts: Effect.map(Ref.get(state), (current) => current.attempts),
        failNext: (count) => Ref.update(state, (current) => ({ ...current, failuresLeft: count }))
      }
      return Context.make(InMemoryTransport, control).pipe(Context.add(MessageTransport, { send }))
    })
  )

  static readonly sent: Effect.Effect<ReadonlyArray<OutgoingMessage>, never, InMemoryTransport> = Effect.flatMap(
    InMemoryTransport,
    (control) => control.sent
  )

  static readonly attempts: Effect.Effect<number, never, InMemoryTransport> = Effect.flatMap(
    InMemoryTransport,
    (control) => control.attempts
  )

  static readonly failNext = (count: number): Effect.Effect<void, never, InMemoryTransport> =>
    Effect.flatMap(InMemoryTransport, (control) => control.failNext(count))
}
