import { SqlClient } from "@effect/sql"
import { type AttemptRecord, makeWebhookWorker } from "@platform/webhooks"
import { now } from "@platform/service"
import { Effect, Layer } from "effect"
import { IamConfig } from "../config.ts"
import { IamDeliveries } from "../events/deliveries.ts"
import {
  ANSWER_TIME,
  IAM_WEBHOOK_HEADERS,
  IAM_WEBHOOK_SIGNING,
  IAM_WEBHOOK_USER_AGENT,
  nextAttemptAt,
  RETRY_WAITS,
  RETRY_WINDOW
} from "./iamWebhooks.ts"
import { iamOutboundPolicy, WebhookEndpoints } from "./WebhookEndpoints.ts"

/**
 * IAM's webhook worker (one pass at a time with `runDue`; tests drive it so): each due delivery is signed
 * with the key version it names, POSTed to its receiver's URL now, and its attempt kept in
 * `iam_webhook_attempts`; the 8th failure of a cycle dead-letters it.
 */
export const makeIamWebhookWorker = (options: { readonly batchSize?: number } = {}) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const endpoints = yield* WebhookEndpoints
    const sql = yield* SqlClient.SqlClient
    const keepAttempt = (record: AttemptRecord) =>
      Effect.gen(function*() {
        yield* sql`
          insert into iam_webhook_attempts (delivery_id, attempt, attempted_at, key_version, http_status, error)
          values (${record.deliveryId}, ${record.attempt}, ${yield* now}, ${record.keyVersion}, ${record.status}, ${record.error})
        `
      }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("a webhook attempt was not kept in its history", cause)))
    return yield* makeWebhookWorker({
      deliveries: IamDeliveries,
      headers: IAM_WEBHOOK_HEADERS,
      userAgent: IAM_WEBHOOK_USER_AGENT,
      signing: IAM_WEBHOOK_SIGNING,
      retryWaits: RETRY_WAITS,
      retryWindow: RETRY_WINDOW,
      retryAt: nextAttemptAt,
      answerTime: ANSWER_TIME,
      route: endpoints.route,
      onAttempt: keepAttempt,
      batchSize: options.batchSize ?? 20,
      policy: iamOutboundPolicy(config.environment)
    })
  })

/** Delivers IAM's webhooks in every process, beside the server (claims are leased: processes share the queue). */
export const IamWebhookWorkerLive = Layer.scopedDiscard(
  Effect.flatMap(makeIamWebhookWorker(), (worker) => Effect.forkScoped(worker.runForever))
).pipe(Layer.provide(WebhookEndpoints.Default))
