import { Schema } from "effect"

/**
 * One webhook delivery: one event for one receiver. Its queue row id is the delivery id, stable
 * across retries and replays. `body` is the exact JSON the receiver gets (signed at each attempt);
 * `receiver` is the service's routing key, resolved to the current URL and secret at send time,
 * so a rotated secret or a removed URL applies to retries and replays too.
 */
export const DeliveryJob = Schema.Struct({
  event_id: Schema.String,
  event_type: Schema.String,
  /** When the event happened: retries stop a fixed window after it. */
  event_occurred_at: Schema.DateFromSelf,
  receiver: Schema.String,
  body: Schema.String,
  manual_replays: Schema.Number
})
export type DeliveryJob = typeof DeliveryJob.Type

/**
 * A delivery signed with one version of its receiver's secret (IAM): `key_version` is fixed when the
 * delivery is written, so a rotation leaves in-flight deliveries on their version; a replay moves it
 * to the receiver's current version.
 */
export const KeyedDeliveryJob = Schema.Struct({ ...DeliveryJob.fields, key_version: Schema.Number })
export type KeyedDeliveryJob = typeof KeyedDeliveryJob.Type
