import { keyedDeliveriesTable } from "@platform/webhooks"

/**
 * IAM's webhook deliveries: one per event and receiver, signed with the key version it names. A receiver
 * is `app:<app_id>` (an application's webhook), `app-test:<app_id>` (its test webhook) or
 * `silicon:<uuid>` (a Silicon subscriber).
 */
export const IamDeliveries = keyedDeliveriesTable("iam_webhook_deliveries")

export type IamReceiver =
  | { readonly kind: "app"; readonly appId: string }
  | { readonly kind: "app-test"; readonly appId: string }
  | { readonly kind: "silicon"; readonly uuid: string }

export const receiverKey = (receiver: IamReceiver): string =>
  receiver.kind === "silicon" ? `silicon:${receiver.uuid}` : `${receiver.kind}:${receiver.appId}`
