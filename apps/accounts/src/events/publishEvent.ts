import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { randomToken } from "@platform/crypto"
import { rowsDecoder } from "@platform/database"
import { enqueue } from "@platform/queue"
import { Effect, Schema } from "effect"
import { APP_ACCOUNT_COLUMNS, AppAccountRow, appAccountJoins } from "../oauth/AppAccountsRepo.ts"
import type { AccountEvent, ProfileField } from "./AccountEvent.ts"
import { type EventAudience, type EventContext, envelope, eventDataFor, visibleChanges } from "./eventData.ts"
import { type AppEventKind, choiceTakes, DEFAULT_UPDATES, type UpdateChoice, UpdateName } from "./updateNames.ts"
import type { EventWriter } from "./EventWriter.ts"
import { WebhookDeliveries, webhookReceiver } from "./webhookDeliveries.ts"

export const newEventId = () => randomToken("evt_", 16)

const SubscriptionColumns = {
  status: Schema.NullOr(Schema.Literal("active", "paused")),
  all: Schema.NullOr(Schema.Boolean),
  updates: Schema.NullOr(Schema.Array(UpdateName))
}

/** An app that hears about the account, with its scopes and what its webhook and stream subscriptions take. */
const AppReceiverRow = Schema.Struct({
  app_id: Schema.String,
  scopes: Schema.Array(Schema.String),
  has_webhook: Schema.Boolean,
  webhook: Schema.Struct(SubscriptionColumns),
  stream: Schema.Struct(SubscriptionColumns)
})
type SubscriptionColumns = typeof AppReceiverRow.Type["webhook"]

const SubjectRow = Schema.Struct({
  ...AppAccountRow.fields,
  own_webhook: Schema.Boolean,
  previous_custodian_handle: Schema.NullOr(Schema.String)
})

const decodeReceivers = rowsDecoder(AppReceiverRow)
const decodeSubjects = rowsDecoder(SubjectRow)

/**
 * What a subscription takes: none at all means the default set (decisions.md, "Subscriptions");
 * a paused one takes nothing.
 */
const choiceOf = (subscription: SubscriptionColumns): UpdateChoice | undefined =>
  subscription.status === null
    ? { all: false, names: DEFAULT_UPDATES }
    : subscription.status === "paused"
    ? undefined
    : subscription.all === true
    ? { all: true }
    : { all: false, names: subscription.updates ?? [] }

/**
 * Publishes one account event inside the caller's transaction (the one making the change): the
 * `account_events` row, then for each receiver that hears it an `event_feed` row with its own event
 * id and envelope, and a webhook delivery where its webhook takes it.
 *
 * Receivers: every app (not first-party) with an active or imported membership of the account,
 * disabled apps included (their deliveries are held by the worker); for `membership.*` events the
 * one app named, whatever the membership's state now. And the account itself (`account:<uuid>`,
 * always in the feed for its own stream; a webhook delivery when it is a Silicon with a webhook URL).
 *
 * Database failures: SqlError is left to that caller, whose transaction ends with it.
 */
export const publishEvent = (
  { publicUrl, sql }: EventWriter,
  event: AccountEvent
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const subjects = yield* sql`
      SELECT ${sql.literal(APP_ACCOUNT_COLUMNS)}, s.webhook_url IS NOT NULL AS own_webhook,
        (SELECT handle FROM accounts p WHERE p.uuid = ${previousCustodianOf(event)}) AS previous_custodian_handle
      FROM accounts a ${appAccountJoins(sql, "")}
      WHERE a.uuid = ${event.accountUuid}
    `.pipe(Effect.flatMap(decodeSubjects), Effect.orDie)
    const subject = subjects[0]
    if (subject === undefined) return yield* Effect.dieMessage(`event ${event.type} about an unknown account`)
    const { own_webhook, previous_custodian_handle, ...row } = subject
    const context: EventContext = {
      previousCustodianId: previous_custodian_handle === null ? null : `c:${previous_custodian_handle}`,
      publicUrl
    }
    const sourceId = newEventId()
    const ownData = eventDataFor(event, row, { kind: "account" }, context)
    yield* sql`
      INSERT INTO account_events (id, type, account_uuid, occurred_at, data)
      VALUES (${sourceId}, ${event.type}, ${event.accountUuid}, ${event.occurredAt},
              ${JSON.stringify(ownData ?? storedData(event))}::jsonb)
    `

    const write = (
      receiver: string,
      audience: EventAudience,
      header: { readonly appId: string | null; readonly silicon: string | null },
      takes: { readonly webhook: boolean; readonly stream: boolean }
    ) =>
      Effect.gen(function*() {
        const data = eventDataFor(event, row, audience, context)
        if (data === undefined || (!takes.webhook && !takes.stream)) return
        const eventId = newEventId()
        const body = envelope({ eventId, type: event.type, occurredAt: event.occurredAt, ...header, data })
        yield* sql`
          INSERT INTO event_feed (event_id, source_event_id, receiver, type, occurred_at, body, stream)
          VALUES (${eventId}, ${sourceId}, ${receiver}, ${event.type}, ${event.occurredAt}, ${JSON.stringify(body)}::jsonb,
                  ${takes.stream})
        `
        if (takes.webhook) {
          yield* enqueue(WebhookDeliveries, {
            event_id: eventId,
            event_type: event.type,
            event_occurred_at: event.occurredAt,
            receiver,
            body: JSON.stringify(body),
            manual_replays: 0
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
        }
      })

    if (ownData !== undefined) {
      const silicon = row.kind === "silicon" ? row.uuid : null
      yield* write(webhookReceiver({ kind: "account", uuid: row.uuid }), { kind: "account" }, { appId: null, silicon }, {
        webhook: own_webhook,
        stream: true
      })
    }

    const onlyApp = event.type === "membership.access_removed" || event.type === "membership.signed_out"
      ? event.appId
      : null
    const receivers = yield* sql`
      SELECT m.app_id, m.scopes, ap.webhook_url IS NOT NULL AS has_webhook,
        json_build_object('status', w.status, 'all', w.all_updates, 'updates', w.updates) AS webhook,
        json_build_object('status', st.status, 'all', st.all_updates, 'updates', st.updates) AS stream
      FROM memberships m
      JOIN apps ap ON ap.app_id = m.app_id AND ap.source <> 'first_party'
      LEFT JOIN event_subscriptions w ON w.app_id = m.app_id AND w.kind = 'webhook'
      LEFT JOIN event_subscriptions st ON st.app_id = m.app_id AND st.kind = 'stream'
      WHERE m.account_uuid = ${event.accountUuid}
        AND ${onlyApp === null ? sql`m.status IN ('active', 'imported')` : sql`m.app_id = ${onlyApp}`}
      ORDER BY m.app_id
    `.pipe(Effect.flatMap(decodeReceivers), Effect.orDie)
    for (const app of receivers) {
      const audience: EventAudience = { kind: "app", appId: app.app_id, scopes: app.scopes }
      const heard = appEventKind(event, visibleChanges(event.type === "account.updated" ? event.changed : [], row.kind, audience))
      if (heard === undefined) continue
      const takes = (subscription: SubscriptionColumns) => {
        const choice = choiceOf(subscription)
        return choice !== undefined && choiceTakes(choice, heard)
      }
      yield* write(webhookReceiver({ kind: "app", appId: app.app_id }), audience, { appId: app.app_id, silicon: null }, {
        webhook: app.has_webhook && takes(app.webhook),
        stream: takes(app.stream)
      })
    }
  })

/** The event as an app's subscriptions judge it; none for a type apps never hear. */
const appEventKind = (event: AccountEvent, visibleChanged: ReadonlyArray<ProfileField>): AppEventKind | undefined =>
  event.type === "account.updated"
    ? { type: event.type, changed: visibleChanged }
    : event.type === "silicon.stk_rotated"
    ? undefined
    : { type: event.type }

const previousCustodianOf = (event: AccountEvent): string | null =>
  event.type === "silicon.custodian.accepted" ? event.previousCustodian : null

/**
 * What `account_events` keeps of an event the account itself does not hear: a membership event names
 * its app (and a sign-out its reason), so the account's history can show it (decisions.md, "History").
 */
const storedData = (event: AccountEvent): Record<string, unknown> =>
  event.type === "membership.access_removed"
    ? { uuid: event.accountUuid, app_id: event.appId }
    : event.type === "membership.signed_out"
    ? { uuid: event.accountUuid, app_id: event.appId, reason: event.reason }
    : { uuid: event.accountUuid }
