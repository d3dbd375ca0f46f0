import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { pageOf, pageRequest, type PageQuery } from "@platform/http"
import { now } from "@platform/service"
import { DeliveryPosition, type ReplaySelection } from "@platform/webhooks"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { MemberNotFound } from "../organizations/errors.ts"
import { MembersRepo } from "../organizations/MembersRepo.ts"
import { OrganizationAccess } from "../organizations/OrganizationAccess.ts"
import { OrganizationEvents } from "../organizations/OrganizationEvents.ts"
import { WebhookNotConfigured } from "./errors.ts"
import { iamDeliveryRecords } from "./iamWebhooks.ts"
import { newWebhookSecret, WebhookEndpoints } from "./WebhookEndpoints.ts"

const REPLAY_ORDER_STEP_MS = 1

/** An application's or Silicon's webhook: its URL, dead letters and replays; a Silicon subscriber's configuration. */
export class Webhooks extends Effect.Service<Webhooks>()("iam/Webhooks", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const endpoints = yield* WebhookEndpoints
    const access = yield* OrganizationAccess
    const members = yield* MembersRepo
    const events = yield* OrganizationEvents

    /** Sets the receiver's URL; its first secret (given, or generated and answered once) when it has none. */
    const setEndpoint = (change: Parameters<typeof endpoints.put>[0], suppliedSecret: Option.Option<string>) =>
      Effect.gen(function*() {
        const secret = Option.isSome(suppliedSecret) ? yield* endpoints.checkSecret(suppliedSecret.value) : undefined
        const url = yield* endpoints.put(change)
        const current = yield* endpoints.currentVersion(change.receiver)
        if (Option.isSome(current) && secret === undefined) return { url, key_version: current.value, secret: Option.none<string>() }
        const fresh = secret ?? newWebhookSecret()
        const version = yield* endpoints.addVersion(change.receiver, fresh)
        return { url, key_version: version, secret: secret === undefined ? Option.some(fresh) : Option.none<string>() }
      })

    /** A new current secret version; the one before stays accepted for PREVIOUS_KEY_WINDOW. */
    const rotateSecret = (receiver: string, secret: string) =>
      Effect.gen(function*() {
        const checked = yield* endpoints.checkSecret(secret)
        const current = yield* endpoints.currentVersion(receiver)
        if (Option.isNone(current) || Option.isNone(yield* endpoints.find(receiver))) {
          return yield* new WebhookNotConfigured({ message: "This application has no webhook URL; set one first." })
        }
        const version = yield* endpoints.addVersion(receiver, checked)
        const previous = yield* sql<{ readonly accepted_until: Date }>`
          select accepted_until from iam_webhook_keys where receiver = ${receiver} and version = ${current.value}
        `.pipe(Effect.orDie)
        return {
          key_version: version,
          previous_key_version: current.value,
          previous_accepted_until: previous[0]!.accepted_until.toISOString()
        }
      })

    const deadLetters = (receiver: string, query: PageQuery) =>
      Effect.gen(function*() {
        const { after, limit } = yield* pageRequest(DeliveryPosition, query)
        const rows = yield* iamDeliveryRecords.list({ receiver, status: Option.some("failed"), limit, after }).pipe(Effect.orDie)
        const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.id] as const)
        return {
          items: page.items.map((row) => ({
            delivery_id: row.id,
            event_id: row.event_id,
            event_type: row.event_type,
            cycle_attempt_count: row.attempts,
            manual_replay_count: row.manual_replays,
            last_error: row.last_error,
            created_at: row.created_at.toISOString()
          })),
          next_cursor: page.nextCursor
        }
      })

    /**
     * Replays dead letters in one transaction, in order (the ids' order, else the oldest first): same delivery and
     * event id, `cycle_attempt_count` back to 0, `manual_replay_count` plus one, the current key version (the URL is
     * read at each attempt), due now in that order; the requester is recorded.
     */
    const replay = (receiver: string, ids: Option.Option<ReadonlyArray<string>>, requester: AuthenticatedIdentity) =>
      Effect.gen(function*() {
        const at = yield* now
        const selection: ReplaySelection = Option.match(ids, {
          onNone: () => ({ _tag: "Failed", since: Option.none() }),
          onSome: (named) => ({ _tag: "Ids", ids: named })
        })
        const outcome = yield* iamDeliveryRecords.replay(receiver, selection, at).pipe(Effect.orDie)
        const replayed = new Set(outcome.replayed)
        const ordered = Option.isSome(ids)
          ? [...new Set(ids.value.map((id) => id.toLowerCase()))].filter((id) => replayed.has(id))
          : (yield* sql<{ readonly id: string }>`
            select id::text as id from iam_webhook_deliveries where id in ${sql.in([...replayed, "00000000-0000-0000-0000-000000000000"])}
            order by created_at, id
          `.pipe(Effect.orDie)).map((row) => row.id)
        const version = Option.getOrElse(yield* endpoints.currentVersion(receiver), () => 1)
        yield* Effect.forEach(ordered, (id, position) =>
          Effect.gen(function*() {
            const due = new Date(at.getTime() - (ordered.length - position) * REPLAY_ORDER_STEP_MS)
            yield* sql`
              update iam_webhook_deliveries set attempts = 0, key_version = ${version}, next_attempt_at = ${due} where id = ${id}
            `
            yield* sql`
              insert into iam_webhook_replays (delivery_id, requested_by, requested_at, position)
              values (${id}, ${requester.uuid}, ${at}, ${position})
            `
          }).pipe(Effect.orDie), { discard: true })
        return { replayed: ordered, skipped: outcome.skipped }
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    /** The Silicon must be an active Silicon member of the organization, and the caller one of its admins. */
    const siliconOf = (actor: AuthenticatedIdentity, organizationId: string, siliconUuid: string) =>
      Effect.gen(function*() {
        yield* access.change(organizationId, actor.uuid, "admin")
        const member = yield* members.find(organizationId, siliconUuid)
        if (Option.isNone(member) || member.value.status !== "active" || member.value.identity.kind !== "silicon") {
          return yield* new MemberNotFound({ message: "No active Silicon of this organization has this uuid." })
        }
        return member.value
      })

    /**
     * An admin points a Silicon member's webhook at `url` for `eventTypes`; a new or changed URL spends
     * `confirmRedirect` (step-up organization.silicon_webhook.redirect on the Silicon's uuid). Writes
     * `webhook.configured` when the URL is new or changed and `webhook_subscription.updated` when the types are.
     */
    const configureSilicon = <E, R>(
      actor: AuthenticatedIdentity,
      organizationId: string,
      siliconUuid: string,
      request: { readonly url: string; readonly eventTypes: ReadonlyArray<string> },
      confirmRedirect: Effect.Effect<void, E, R>
    ) =>
      Effect.gen(function*() {
        const member = yield* siliconOf(actor, organizationId, siliconUuid)
        const receiver = `silicon:${siliconUuid}`
        const before = yield* endpoints.find(receiver)
        const url = yield* endpoints.checkUrl(request.url)
        const redirected = Option.isNone(before) || before.value.url !== url
        const types = [...new Set(request.eventTypes)].sort()
        const resubscribed = Option.isNone(before) || JSON.stringify(before.value.event_types) !== JSON.stringify(types)
        if (redirected) yield* confirmRedirect
        const set = yield* setEndpoint(
          { receiver, url, organizationId, eventTypes: types, by: actor.uuid },
          Option.none()
        )
        const silicon = { uuid: member.identity.uuid, id: member.identity.id }
        if (redirected) {
          yield* events.publish(organizationId, actor.uuid, "organization.silicon.webhook.configured.v1", () =>
            Effect.succeed({ changed: ["url"], current: { resource: { silicon, url } } }))
        }
        if (resubscribed) {
          yield* events.publish(organizationId, actor.uuid, "organization.silicon.webhook_subscription.updated.v1", () =>
            Effect.succeed({ changed: ["event_types"], current: { resource: { silicon, event_types: types } } }))
        }
        return {
          silicon_uuid: siliconUuid,
          organization_id: organizationId,
          url,
          event_types: types,
          key_version: set.key_version,
          webhook_signing_secret: Option.getOrNull(set.secret)
        }
      })

    /** Removes a Silicon's webhook: its pending deliveries fail (replayable once it has one again). */
    const removeSilicon = (actor: AuthenticatedIdentity, organizationId: string, siliconUuid: string) =>
      Effect.gen(function*() {
        const member = yield* siliconOf(actor, organizationId, siliconUuid)
        const receiver = `silicon:${siliconUuid}`
        if (Option.isNone(yield* endpoints.find(receiver))) {
          return yield* new WebhookNotConfigured({ message: "This Silicon has no webhook." })
        }
        yield* endpoints.remove(receiver)
        yield* iamDeliveryRecords.failPending(receiver, "the webhook was removed").pipe(Effect.orDie)
        const silicon = { uuid: member.identity.uuid, id: member.identity.id }
        yield* events.publish(organizationId, actor.uuid, "organization.silicon.webhook_subscription.deleted.v1", () =>
          Effect.succeed({ changed: ["event_types"], current: { resource: { silicon, event_types: [] } } }))
        yield* events.publish(organizationId, actor.uuid, "organization.silicon.webhook.deleted.v1", () =>
          Effect.succeed({ changed: ["url"], current: { resource: { silicon, url: null } } }))
      })

    /** The test webhook: its URL and testing_key; a replacement brings a fresh test-only secret unless one is given. */
    const setTestWebhook = (appId: string, url: string, supplied: Option.Option<string>, by: string) =>
      Effect.gen(function*() {
        const receiver = `app-test:${appId}`
        const before = yield* endpoints.find(receiver)
        const testingKey = Option.match(before, { onNone: () => randomToken("wht_", 16), onSome: (found) => found.testing_key! })
        const checked = yield* endpoints.put({ receiver, url, testingKey, by })
        const secret = Option.isSome(supplied) ? yield* endpoints.checkSecret(supplied.value) : newWebhookSecret()
        const version = yield* endpoints.addVersion(receiver, secret)
        return {
          app_id: appId,
          url: checked,
          testing_key: testingKey,
          key_version: version,
          webhook_signing_secret: Option.isSome(supplied) ? null : secret
        }
      })

    return { setEndpoint, rotateSecret, deadLetters, replay, configureSilicon, removeSilicon, setTestWebhook } as const
  }),
  dependencies: [WebhookEndpoints.Default, OrganizationAccess.Default, MembersRepo.Default, OrganizationEvents.Default]
}) {}
