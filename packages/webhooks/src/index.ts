/** Signed webhook delivery on the claimed-work queue: what a service parametrises (headers, signing, schedule, routing). */
export {
  type AnyDeliveriesTable,
  createDeliveriesTable,
  type DeliveriesTable,
  deliveriesTable,
  type KeyedDeliveriesTable,
  keyedDeliveriesTable
} from "./deliveriesTable.ts"
export { DeliveryJob, KeyedDeliveryJob } from "./DeliveryJob.ts"
export {
  DeliveryPosition,
  DeliveryRecord,
  deliveryRecords,
  DeliveryStatus,
  MAX_REPLAY,
  type ReplayOutcome,
  type ReplaySelection
} from "./deliveryRecords.ts"
export { DeliveryFailed, postWebhook } from "./postWebhook.ts"
export { retryWithin } from "./retryWindow.ts"
export { hmacSha256V1, type WebhookSigning } from "./signature.ts"
export {
  type AttemptRecord,
  makeWebhookWorker,
  type WebhookDeliveryOptions,
  type WebhookHeaderNames,
  webhookWorkerLayer
} from "./WebhookDelivery.ts"
export { WebhookRoute } from "./WebhookRoute.ts"
