import { SqlClient } from "@effect/sql"
import { AnsweredDefect } from "@platform/http"
import { enqueue } from "@platform/queue"
import { Effect } from "effect"
import { EventTooLarge } from "./errors.ts"
import { IamDeliveries } from "./deliveries.ts"
import { type Content, type EnvelopeEvent, productionBody, testBody } from "./envelope.ts"
import { departedIdentities, type EventForProjection, projectForApplication } from "./projection.ts"
import { type AuthorizationRow, recipientsOf } from "./recipients.ts"

/** Spec 2: each projection is at most 1 MiB of plaintext. */
export const MAX_PROJECTION_BYTES = 1024 * 1024

const tooLarge = (event: EnvelopeEvent, receiver: string) =>
  Effect.die(
    new AnsweredDefect(
      new EventTooLarge({
        message: `This change would send more than 1 MiB in its ${event.type} webhook to ${receiver}; nothing was changed.`
      })
    )
  )

interface Endpoint {
  readonly receiver: string
  readonly testing_key: string | null
  readonly key_version: number | null
}

/**
 * In the change's transaction: every receiver of the event, with the bytes it will get, queued at its
 * current key version. Applications authorized immediately before or after the change (recipients.ts)
 * with the type in their webhook_scope get their projection (projection.ts), or a tombstone when
 * authorized only before; Silicon subscribers of the organization get the event as written. A
 * projection over 1 MiB fails the change with EventTooLarge.
 */
export const fanOut = (event: EnvelopeEvent & EventForProjection) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const departed = departedIdentities(event)
    const recipients = yield* recipientsOf(event.aggregate.id, event.type, departed)
    const receivers = recipients.flatMap((recipient) =>
      recipient.kind === "silicon" ? [`silicon:${recipient.uuid}`] : [`app:${recipient.appId}`, `app-test:${recipient.appId}`]
    )
    if (receivers.length === 0) return
    const endpoints = yield* sql<Endpoint>`
      select e.receiver, e.testing_key,
        (select max(k.version) from iam_webhook_keys k where k.receiver = e.receiver)::int as key_version
      from iam_webhook_endpoints e where e.receiver in ${sql.in(receivers)}
    `.pipe(Effect.orDie)
    const byReceiver = new Map(endpoints.map((endpoint) => [endpoint.receiver, endpoint]))
    for (const recipient of recipients) {
      const content = contentFor(event, recipient)
      if (content === undefined) continue
      if (content._tag === "Data" && Buffer.byteLength(JSON.stringify(content.data), "utf8") > MAX_PROJECTION_BYTES) {
        return yield* tooLarge(event, recipient.kind === "silicon" ? recipient.uuid : recipient.appId)
      }
      const targets = recipient.kind === "silicon" ? [`silicon:${recipient.uuid}`] : [`app:${recipient.appId}`, `app-test:${recipient.appId}`]
      for (const receiver of targets) {
        const endpoint = byReceiver.get(receiver)
        if (endpoint === undefined || endpoint.key_version === null) continue
        const body = endpoint.testing_key === null
          ? productionBody(event, content)
          : testBody(endpoint.testing_key, event, content)
        yield* enqueue(IamDeliveries, {
          event_id: event.id,
          event_type: event.type,
          event_occurred_at: event.occurredAt,
          receiver,
          body,
          manual_replays: 0,
          key_version: endpoint.key_version
        }).pipe(Effect.orDie)
      }
    }
  })

const contentFor = (event: EventForProjection, recipient: AuthorizationRow): Content | undefined => {
  if (!recipient.authorizedAfter) return { _tag: "Tombstone", identityUuids: recipient.departedUuids }
  if (recipient.kind === "silicon") return { _tag: "Data", data: event.data }
  const data = projectForApplication(event, recipient)
  return data === undefined ? undefined : { _tag: "Data", data }
}
