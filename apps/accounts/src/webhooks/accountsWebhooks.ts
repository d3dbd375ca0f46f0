import { Duration } from "effect"
import { deliveryRecords, hmacSha256V1, type WebhookHeaderNames } from "@platform/webhooks"
import { WebhookDeliveries } from "../events/webhookDeliveries.ts"

/** Spec 1, Events › Webhook delivery: what accounts' webhooks look like on the wire and how long they are tried. */
export const ACCOUNTS_WEBHOOK_HEADERS: WebhookHeaderNames = {
  eventId: "X-Accounts-Event-Id",
  eventType: "X-Accounts-Event-Type",
  deliveryId: "X-Accounts-Delivery-Id",
  timestamp: "X-Accounts-Timestamp",
  signature: "X-Accounts-Signature"
}
export const ACCOUNTS_WEBHOOK_USER_AGENT = "AccountsWebhooks/1"
export const ACCOUNTS_WEBHOOK_SIGNING = hmacSha256V1
export const RETRY_WAITS = ["10 seconds", "30 seconds", "1 minute", "5 minutes", "15 minutes", "30 minutes", "1 hour"] as const
export const RETRY_WINDOW = Duration.hours(72)
export const ANSWER_TIME = Duration.seconds(10)

/** Test pings are never replayed. */
export const PING = "ping"

export const accountsDeliveryRecords = deliveryRecords(WebhookDeliveries, [PING])
