import { InMemoryTransport, MessageDelivery } from "@platform/mail"
import { Effect, Layer } from "effect"

/** Messages delivered to memory only when a test asks (no worker, so TestClock cannot stall one). */
export const deliveredOnDemand = MessageDelivery.layerWithoutWorker().pipe(Layer.provideMerge(InMemoryTransport.layer))

/** The code of the latest message to `to`, after delivering what the outbox holds. */
export const latestCodeTo = (to: string) =>
  Effect.gen(function*() {
    yield* Effect.orDie(Effect.flatMap(MessageDelivery, (delivery) => delivery.deliverDue))
    const sent = yield* InMemoryTransport.sent
    const code = sent.filter((message) => message.to === to).at(-1)?.code
    return code === undefined || code === null ? yield* Effect.dieMessage(`no code was delivered to ${to}`) : code
  })

/** A six-digit code that is not `code`. */
export const wrongCodeFor = (code: string): string => code === "000000" ? "000001" : "000000"
