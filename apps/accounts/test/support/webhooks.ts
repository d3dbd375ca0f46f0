import { enqueue } from "@platform/queue"
import { Clock, Duration, Effect } from "effect"
import { WebhookDeliveries } from "../../src/events/webhookDeliveries.ts"
import { ACCOUNTS_WEBHOOK_SIGNING } from "../../src/webhooks/accountsWebhooks.ts"
import type { ReceivedRequest } from "@platform/testkit"

let counter = 0

/** A delivery row as the events code writes it in the change's transaction (the same `enqueue` call). */
export const enqueueAccountsDelivery = (receiver: string, options: { readonly type?: string; readonly occurredAt?: Date } = {}) =>
  Effect.gen(function*() {
    const occurredAt = options.occurredAt ?? new Date(yield* Clock.currentTimeMillis)
    const eventId = `evt_test${++counter}${Date.now().toString(36)}`
    const type = options.type ?? "account.updated"
    const body = JSON.stringify({ event_id: eventId, type, occurred_at: occurredAt.toISOString(), app_id: null, silicon: null, data: {} })
    const id = yield* enqueue(WebhookDeliveries, {
      event_id: eventId,
      event_type: type,
      event_occurred_at: occurredAt,
      receiver,
      body,
      manual_replays: 0
    })
    return { id, eventId, body }
  }).pipe(Effect.orDie)

/** The live clock moved by `offset`: what a worker pass sees later on (the server under test keeps real time). */
export const clockLater = (offset: Duration.DurationInput): Clock.Clock => {
  const live = Clock.make()
  const millis = () => live.unsafeCurrentTimeMillis() + Duration.toMillis(Duration.decode(offset))
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    currentTimeMillis: Effect.sync(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: (duration) => live.sleep(duration)
  }
}

const one = (value: string | Array<string> | undefined) => (Array.isArray(value) ? value.join(",") : value ?? "")

/** Whether the request carries a valid X-Accounts-Signature by `secret` over its raw bytes. */
export const signedWith = (request: ReceivedRequest, secret: string) =>
  ACCOUNTS_WEBHOOK_SIGNING.verify(
    one(request.headers["x-accounts-signature"]),
    secret,
    one(request.headers["x-accounts-timestamp"]),
    request.rawBody.toString("utf8")
  )
