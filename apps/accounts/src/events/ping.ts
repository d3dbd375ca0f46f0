import { SqlClient } from "@effect/sql"
import { enqueue } from "@platform/queue"
import { Effect, Option } from "effect"
import { envelope } from "./eventData.ts"
import { newEventId } from "./publishEvent.ts"
import { WebhookDeliveries, webhookReceiver } from "./webhookDeliveries.ts"

/**
 * Queues a `ping` delivery to the app's webhook (subscriptions' test route): the envelope of every
 * event, with data `{message, app_id}`. It goes whatever the subscriptions choose, writes no
 * event_feed row (a ping is for the webhook, not the stream) and is never replayed. None when the
 * app has no webhook URL.
 *
 * Database failures: SqlError is a defect.
 */
export const queuePing = (
  appId: string,
  at: Date
): Effect.Effect<Option.Option<{ readonly event_id: string; readonly delivery_id: string }>, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const apps = yield* sql`SELECT 1 FROM apps WHERE app_id = ${appId} AND webhook_url IS NOT NULL`
    if (apps.length === 0) return Option.none()
    const eventId = newEventId()
    const body = envelope({
      eventId,
      type: "ping",
      occurredAt: at,
      appId,
      silicon: null,
      data: { message: "A test delivery: your webhook is reachable and verifies our signature.", app_id: appId }
    })
    const deliveryId = yield* enqueue(WebhookDeliveries, {
      event_id: eventId,
      event_type: "ping",
      event_occurred_at: at,
      receiver: webhookReceiver({ kind: "app", appId }),
      body: JSON.stringify(body),
      manual_replays: 0
    })
    return Option.some({ event_id: eventId, delivery_id: deliveryId })
  }).pipe(Effect.orDie)
