import type { Job } from "@platform/queue"
import { deliveryRecords, hmacSha256V1, type WebhookHeaderNames } from "@platform/webhooks"
import { Duration, Option } from "effect"
import { IamDeliveries } from "../events/deliveries.ts"

/** Spec 2, Events: the headers of IAM's webhooks (Event-ID, Timestamp, Key-Version, Signature; the rest are ours). */
export const IAM_WEBHOOK_HEADERS: WebhookHeaderNames = {
  eventId: "X-Iam-Event-ID",
  eventType: "X-Iam-Event-Type",
  deliveryId: "X-Iam-Delivery-ID",
  timestamp: "X-Iam-Timestamp",
  keyVersion: "X-Iam-Key-Version",
  signature: "X-Iam-Signature"
}
export const IAM_WEBHOOK_USER_AGENT = "IamWebhooks/1"
export const IAM_WEBHOOK_SIGNING = hmacSha256V1

/**
 * The bounded schedule of one cycle: 8 attempts, waiting these after failures 1 to 7 (about 20 h 36 min in
 * all, within the 24 hours a replaced key stays accepted); the 8th failure dead-letters the delivery.
 */
export const RETRY_WAITS = ["10 seconds", "1 minute", "5 minutes", "30 minutes", "2 hours", "6 hours", "12 hours"] as const
export const ATTEMPTS_PER_CYCLE = RETRY_WAITS.length + 1
/** Only a held delivery uses it (IAM holds none): the cycle is bounded by attempts. */
export const RETRY_WINDOW = Duration.hours(24)
export const ANSWER_TIME = Duration.seconds(10)
/** Attempt history is kept this long (spec 2). */
export const ATTEMPT_HISTORY = Duration.days(45)

const waits = RETRY_WAITS.map((wait) => Duration.toMillis(Duration.decode(wait)))

/** After the n-th failed attempt of a cycle (attempts count from the cycle's start, reset by a replay). */
export const nextAttemptAt = (job: Job<unknown>, failedAt: Date): Option.Option<Date> =>
  job.attempt <= waits.length ? Option.some(new Date(failedAt.getTime() + waits[job.attempt - 1]!)) : Option.none()

export const iamDeliveryRecords = deliveryRecords(IamDeliveries, [])
