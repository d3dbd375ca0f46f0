import { WebhookRoute } from "@platform/webhooks"
import { Effect, Option } from "effect"
import { parseWebhookReceiver } from "../events/webhookDeliveries.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { WebhookTargetsRepo } from "./WebhookTargetsRepo.ts"

/**
 * Where a delivery goes at this attempt: `app:<id>` to the app's webhook, held while the app is
 * disabled; `account:<uuid>` to the Silicon's own webhook. No URL (removed, never set, the app
 * or Silicon gone) or no secret fails the delivery at once.
 */
export const makeWebhookRouting = Effect.gen(function*() {
  const targets = yield* WebhookTargetsRepo
  const secretsAtRest = yield* SecretsAtRest
  return (key: string): Effect.Effect<WebhookRoute> =>
    Effect.gen(function*() {
      const receiver = parseWebhookReceiver(key)
      if (receiver === undefined) return WebhookRoute.fail(`unknown receiver ${key}`)
      const stored = yield* targets.find(receiver)
      if (Option.isNone(stored)) return WebhookRoute.fail(receiver.kind === "app" ? "the app no longer exists" : "the Silicon no longer exists")
      const { paused, sealedSecret, url } = stored.value
      if (paused) return WebhookRoute.hold("the app is disabled")
      if (url === null) return WebhookRoute.fail("the webhook URL was removed")
      if (sealedSecret === null) return WebhookRoute.fail("the webhook has no secret")
      return WebhookRoute.deliver(url, yield* secretsAtRest.open("webhook_secret", sealedSecret))
    })
})
