import { makeWebhookWorker } from "@platform/webhooks"
import { Effect, Layer } from "effect"
import { AccountsConfig } from "../config.ts"
import { WebhookDeliveries } from "../events/webhookDeliveries.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { outboundPolicy } from "../silicons/newSiliconInput.ts"
import {
  ACCOUNTS_WEBHOOK_HEADERS,
  ACCOUNTS_WEBHOOK_SIGNING,
  ACCOUNTS_WEBHOOK_USER_AGENT,
  ANSWER_TIME,
  RETRY_WAITS,
  RETRY_WINDOW
} from "./accountsWebhooks.ts"
import { makeWebhookRouting } from "./webhookRouting.ts"
import { WebhookTargetsRepo } from "./WebhookTargetsRepo.ts"

/** Accounts' webhook worker (one pass at a time with `runDue`; tests drive it so). */
export const makeAccountsWebhookWorker = Effect.gen(function*() {
  const config = yield* AccountsConfig
  return yield* makeWebhookWorker({
    deliveries: WebhookDeliveries,
    headers: ACCOUNTS_WEBHOOK_HEADERS,
    userAgent: ACCOUNTS_WEBHOOK_USER_AGENT,
    signing: ACCOUNTS_WEBHOOK_SIGNING,
    retryWaits: RETRY_WAITS,
    retryWindow: RETRY_WINDOW,
    answerTime: ANSWER_TIME,
    route: yield* makeWebhookRouting,
    // Attempts wait on receivers far more than on this process: 50 at once keep a burst moving.
    batchSize: 50,
    policy: outboundPolicy(config)
  })
}).pipe(Effect.provide([WebhookTargetsRepo.Default, SecretsAtRest.Default]))

/**
 * Passes run side by side in each process: a pass waits for its slowest receiver before it
 * records and claims again, so one lane would leave the process idle behind one slow answer.
 */
const LANES = 4

/**
 * Delivers accounts' webhooks in every process: claims are `FOR UPDATE SKIP LOCKED` with a
 * 60-second lease, so processes share the queue without delivering one attempt twice at once.
 */
export const WebhookWorkerLive = Layer.scopedDiscard(
  Effect.flatMap(makeAccountsWebhookWorker, (worker) => Effect.replicateEffect(Effect.forkScoped(worker.runForever), LANES))
)
