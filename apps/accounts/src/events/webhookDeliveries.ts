import { deliveriesTable } from "@platform/webhooks"

/**
 * Accounts' webhook deliveries. `receiver` is `app:<app_id>` for an app's webhook and
 * `account:<uuid>` for a Silicon's own webhook (see `webhookReceiver`).
 */
export const WebhookDeliveries = deliveriesTable("webhook_deliveries")

export type WebhookReceiver =
  | { readonly kind: "app"; readonly appId: string }
  | { readonly kind: "account"; readonly uuid: string }

export const webhookReceiver = (receiver: WebhookReceiver): string =>
  receiver.kind === "app" ? `app:${receiver.appId}` : `account:${receiver.uuid}`

export const parseWebhookReceiver = (key: string): WebhookReceiver | undefined =>
  key.startsWith("app:")
    ? { kind: "app", appId: key.slice(4) }
    : key.startsWith("account:")
    ? { kind: "account", uuid: key.slice(8) }
    : undefined
