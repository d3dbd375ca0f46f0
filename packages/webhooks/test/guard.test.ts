import { describe, expect, it } from "@effect/vitest"
import type { LookupAll } from "@platform/outbound"
import { webhookReceiver } from "@platform/testkit"
import { Effect } from "effect"
import { WebhookRoute } from "../src/WebhookRoute.ts"
import { deliveryRow, enqueueDelivery, freshDatabase, loopbackPolicy, testWorker } from "./support/testDeliveries.ts"

const development = { production: false, allowLoopback: false }

/** One attempt at `url` under `policy`; answers the delivery's row after it. */
const attemptAt = (url: string, policy = development, lookupAll?: LookupAll) =>
  Effect.gen(function*() {
    const worker = yield* testWorker(() => Effect.succeed(WebhookRoute.deliver(url, "whsec_k")), { policy, ...(lookupAll ? { lookupAll } : {}) })
    const { id } = yield* enqueueDelivery(`r:${url}`)
    yield* worker.runDue
    return yield* deliveryRow(id)
  })

describe("the outbound guard at send time", () => {
  it.effect.each<readonly [string, string]>([
    ["http://127.0.0.1/hook", "the URL must be an https URL (http only on loopback in development)"],
    ["http://[::1]/hook", "the URL must be an https URL (http only on loopback in development)"],
    ["http://10.0.0.1/hook", "the URL must be an https URL (http only on loopback in development)"],
    ["http://169.254.169.254/latest/meta-data", "the URL must be an https URL (http only on loopback in development)"],
    ["https://10.0.0.1/hook", "the URL must point to a public address"],
    ["https://169.254.169.254/", "the URL must point to a public address"],
    ["https://[::1]/hook", "the URL must point to a public address"],
    ["https://metadata.internal/hook", "the URL must point to a public address"]
  ])("%s is a failed attempt: %s", ([url, error]) =>
    Effect.gen(function*() {
      expect(yield* attemptAt(url)).toMatchObject({ status: "pending", attempts: 1, last_error: error })
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("a name that resolves to a private address is refused at connect time", () =>
    Effect.gen(function*() {
      const lookupAll: LookupAll = () => Promise.resolve([{ address: "93.184.216.34", family: 4 }, { address: "10.1.2.3", family: 4 }])
      expect(yield* attemptAt("https://hooks.example.com/hook", development, lookupAll)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: "refused by the outbound guard: hooks.example.com resolves to 10.1.2.3, not a public address"
      })
    }).pipe(Effect.provide(freshDatabase())))

  it.scoped("the check runs at each connection: a name that rebinds from an allowed address to a private one is refused", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      const port = new URL(receiver.url).port
      const answers = ["127.0.0.1", "10.9.9.9"]
      const lookupAll: LookupAll = () => Promise.resolve([{ address: answers.shift() ?? "10.9.9.9", family: 4 }])
      // Allowed in development: loopback; the name passes the URL check (https) and is resolved when connecting.
      const worker = yield* testWorker(() => Effect.succeed(WebhookRoute.deliver(`https://rebinding.example.com:${port}/hook`, "whsec_k")), {
        policy: loopbackPolicy,
        lookupAll
      })
      const first = yield* enqueueDelivery("one")
      yield* worker.runDue
      // The first answer led to a connection (the plain-HTTP receiver then fails the TLS handshake).
      expect(receiver.connections()).toBe(1)
      expect((yield* deliveryRow(first.id)).last_error).not.toMatch(/outbound guard/)
      const second = yield* enqueueDelivery("two")
      yield* worker.runDue
      expect(yield* deliveryRow(second.id)).toMatchObject({
        status: "pending",
        last_error: "refused by the outbound guard: rebinding.example.com resolves to 10.9.9.9, not a public address"
      })
      expect(receiver.connections()).toBe(1)
    }).pipe(Effect.provide(freshDatabase())))

  it.effect("no answer within the answer time is a failed attempt", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.answerWith(() => ({ status: 200, delayMillis: 3_000 }))
      expect(yield* attemptAt(`${receiver.url}/slow`, loopbackPolicy)).toMatchObject({
        status: "pending",
        last_error: "no answer within 2s"
      })
    }).pipe(Effect.scoped, Effect.provide(freshDatabase())), 15_000)
})
