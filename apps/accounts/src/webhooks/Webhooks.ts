import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { decodeCursor, DEFAULT_PAGE_SIZE, pageOf, ValidationFailed } from "@platform/http"
import { enqueue } from "@platform/queue"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { now } from "@platform/service"
import { DeliveryPosition, type DeliveryRecord, MAX_REPLAY, type ReplaySelection } from "@platform/webhooks"
import { Effect, Either, Option } from "effect"
import { AccountsConfig } from "../config.ts"
import { WebhookDeliveries, type WebhookReceiver, webhookReceiver } from "../events/webhookDeliveries.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { WebhookNotSet } from "../silicons/errors.ts"
import { outboundPolicy } from "../silicons/newSiliconInput.ts"
import { validateWebhookUrl } from "../silicons/siliconFields.ts"
import { accountsDeliveryRecords, PING } from "./accountsWebhooks.ts"
import type { DeliveryQuery, ReplayRequest, WebhookSetting } from "./Api.ts"
import { WebhookTargetsRepo } from "./WebhookTargetsRepo.ts"

const testPings: RateLimitRule = { id: "silicon_webhook_pings", operation: "Silicon webhook test pings", limit: 10, window: "1 hour", per: "Silicon" }

const invalid = (field: string, problem: string) =>
  new ValidationFailed({ message: `Invalid values: ${field} ${problem}.`, details: { fields: { [field]: problem } } })

const notSet = () => new WebhookNotSet({ message: "No webhook URL is set.", hint: "Set one with PUT …/webhook first." })

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** A delivery as the list shows it. */
export const deliveryView = (record: DeliveryRecord) => ({
  delivery_id: record.id,
  event_id: record.event_id,
  event_type: record.event_type,
  status: record.status,
  attempts: record.attempts,
  last_error: record.last_error,
  manual_replays: record.manual_replays,
  created_at: record.created_at.toISOString(),
  next_attempt_at: iso(record.next_attempt_at),
  delivered_at: iso(record.delivered_at)
})

/** What a replay request picks, or 422 naming the field. */
const replaySelection = (request: typeof ReplayRequest.Type): Either.Either<ReplaySelection, ValidationFailed> => {
  if ((request.delivery_ids === undefined) === (request.status === undefined)) {
    return Either.left(invalid("delivery_ids", "or status must be sent, not both"))
  }
  if (request.delivery_ids !== undefined) {
    if (request.since !== undefined) return Either.left(invalid("since", "goes with status only"))
    if (request.delivery_ids.length === 0 || request.delivery_ids.length > MAX_REPLAY) {
      return Either.left(invalid("delivery_ids", `must list 1 to ${MAX_REPLAY} ids`))
    }
    return Either.right({ _tag: "Ids", ids: request.delivery_ids })
  }
  if (request.since === undefined) return Either.right({ _tag: "Failed", since: Option.none() })
  const since = new Date(request.since)
  return Number.isNaN(since.getTime())
    ? Either.left(invalid("since", "must be an ISO 8601 timestamp"))
    : Either.right({ _tag: "Failed", since: Option.some(since) })
}

/**
 * An app's or a Silicon's webhook: setting it (a new secret shown once when none was set or on
 * rotation), removing it (its pending deliveries fail), its deliveries, replays and test pings.
 */
export class Webhooks extends Effect.Service<Webhooks>()("accounts/Webhooks", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const targets = yield* WebhookTargetsRepo
    const secretsAtRest = yield* SecretsAtRest
    const limiter = yield* RateLimiter
    const policy = outboundPolicy(yield* AccountsConfig)

    const set = (receiver: WebhookReceiver, setting: typeof WebhookSetting.Type) =>
      Effect.gen(function*() {
        const url = yield* Either.mapLeft(validateWebhookUrl(policy)(setting.url), (problem) => invalid("url", problem))
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const stored = yield* targets.find(receiver)
          const hasSecret = Option.exists(stored, (webhook) => webhook.sealedSecret !== null)
          const secret = setting.rotate_secret === true || !hasSecret ? Option.some(randomToken("whsec_")) : Option.none()
          yield* targets.set(receiver, url, Option.map(secret, (value) => secretsAtRest.seal("webhook_secret", value)), at)
          return { webhook_url: url, webhook_secret: Option.getOrNull(secret) }
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      })

    /** Removes the webhook; its pending deliveries fail at once (and stay replayable). */
    const remove = (receiver: WebhookReceiver) =>
      Effect.gen(function*() {
        const at = yield* now
        const removed = yield* sql.withTransaction(Effect.gen(function*() {
          if (!(yield* targets.clear(receiver, at))) return false
          yield* accountsDeliveryRecords.failPending(webhookReceiver(receiver), "the webhook URL was removed")
          return true
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        if (!removed) return yield* notSet()
      })

    const requireWebhook = (receiver: WebhookReceiver) =>
      Effect.flatMap(targets.find(receiver), (stored) =>
        Option.exists(stored, (webhook) => webhook.url !== null) ? Effect.void : Effect.fail(notSet()))

    const list = (receiver: WebhookReceiver, query: typeof DeliveryQuery.Type) =>
      Effect.gen(function*() {
        const limit = query.limit ?? DEFAULT_PAGE_SIZE
        const after = query.cursor === undefined ? Option.none() : Option.some(yield* decodeCursor(DeliveryPosition, query.cursor))
        const rows = yield* accountsDeliveryRecords.list({
          receiver: webhookReceiver(receiver),
          status: Option.fromNullable(query.status),
          limit,
          after
        }).pipe(Effect.orDie)
        const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
        return { items: page.items.map(deliveryView), next_cursor: page.nextCursor }
      })

    /** Sets the picked deliveries pending again: same ids, the current URL and secret, manual_replays counted. */
    const replay = (receiver: WebhookReceiver, request: typeof ReplayRequest.Type) =>
      Effect.gen(function*() {
        const selection = yield* replaySelection(request)
        yield* requireWebhook(receiver)
        const outcome = yield* accountsDeliveryRecords.replay(webhookReceiver(receiver), selection, yield* now).pipe(Effect.orDie)
        return {
          replayed: outcome.replayed,
          skipped: outcome.skipped.map((entry) => ({ delivery_id: entry.id, reason: entry.reason }))
        }
      })

    /** Queues a ping to the Silicon's webhook: 10 per hour per Silicon. */
    const ping = (uuid: string) =>
      Effect.gen(function*() {
        const receiver: WebhookReceiver = { kind: "account", uuid }
        yield* requireWebhook(receiver)
        yield* enforceRateLimit(limiter, testPings, uuid)
        const at = yield* now
        const eventId = randomToken("evt_", 16)
        const body = JSON.stringify({ event_id: eventId, type: PING, occurred_at: at.toISOString(), app_id: null, silicon: uuid, data: {} })
        const deliveryId = yield* enqueue(WebhookDeliveries, {
          event_id: eventId,
          event_type: PING,
          event_occurred_at: at,
          receiver: webhookReceiver(receiver),
          body,
          manual_replays: 0
        }).pipe(Effect.orDie)
        return { delivery_id: deliveryId, event_id: eventId }
      })

    return { set, remove, list, replay, ping } as const
  }),
  dependencies: [WebhookTargetsRepo.Default, SecretsAtRest.Default]
}) {}
