import { SqlClient } from "@effect/sql"
import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer, Option } from "effect"
import { IamApi } from "../api.ts"
import { Applications } from "../applications/Applications.ts"
import { requireOwner } from "../applications/ownership.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { Memberships } from "../organizations/Memberships.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { IdempotencyKeyRequired, SiliconSubscriberRequired } from "./errors.ts"
import { WebhookEndpoints } from "./WebhookEndpoints.ts"
import { Webhooks } from "./Webhooks.ts"
import { compiledGroup } from "@platform/service"

const needsKey = (headers: { readonly "idempotency-key"?: string | undefined }, path: string) =>
  headers["idempotency-key"] === undefined
    ? Effect.fail(
      new IdempotencyKeyRequired({
        message: `POST ${path} needs an Idempotency-Key.`,
        hint: "Send one key per replay request, and the same key when retrying it: nothing is replayed twice."
      })
    )
    : Effect.void

export const ApplicationWebhooksLive = compiledGroup(IamApi, "applicationWebhooks", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const applications = yield* Applications
    const webhooks = yield* Webhooks
    const stepUp = yield* StepUpGuard
    /** The application, when the caller is one of its owners. */
    const owned = (appId: string) =>
      Effect.gen(function*() {
        const application = yield* applications.existing(appId)
        const caller = yield* CurrentIdentity
        yield* requireOwner(application, caller)
        return { application, caller }
      })
    const inTransaction = sql.withTransaction
    return handlers
      .handle("set", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          const { caller } = yield* owned(path.app_id)
          const set = yield* webhooks.setEndpoint({ receiver: `app:${path.app_id}`, url: payload.url, by: caller.uuid }, Option.none())
          if (Option.isSome(set.secret)) yield* carriesNewSecret
          return { app_id: path.app_id, url: set.url, key_version: set.key_version, webhook_signing_secret: Option.getOrNull(set.secret) }
        }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
      .handle("rotateSecret", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* owned(path.app_id)
          yield* stepUp.spend({ action: "application.webhook_secret.rotate", resourceId: path.app_id, applicationId: path.app_id })
          return { app_id: path.app_id, ...(yield* webhooks.rotateSecret(`app:${path.app_id}`, payload.webhook_secret)) }
        }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
      .handle("setTest", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          const { caller } = yield* owned(path.app_id)
          const set = yield* webhooks.setTestWebhook(path.app_id, payload.url, Option.fromNullable(payload.webhook_signing_secret), caller.uuid)
          if (set.webhook_signing_secret !== null) yield* carriesNewSecret
          return set
        }).pipe(inTransaction, Effect.catchTag("SqlError", Effect.die)))
      .handle("deadLetters", ({ path, urlParams }) =>
        Effect.flatMap(owned(path.app_id), () => webhooks.deadLetters(`app:${path.app_id}`, urlParams)))
      .handle("replay", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          yield* needsKey(headers, "/api/v1/applications/{app_id}/webhook/dead-letters/replays")
          const { caller } = yield* owned(path.app_id)
          return yield* webhooks.replay(`app:${path.app_id}`, Option.fromNullable(payload.delivery_ids), caller)
        }))
  })).pipe(Layer.provide([Applications.Default, Memberships.Default, Webhooks.Default]))

export const SiliconWebhooksLive = compiledGroup(IamApi, "siliconWebhooks", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const webhooks = yield* Webhooks
    const endpoints = yield* WebhookEndpoints
    const memberships = yield* Memberships
    const stepUp = yield* StepUpGuard
    /** The Silicon itself, or an owner or admin of the organization its webhook is in. */
    const subscriber = (siliconId: string) =>
      Effect.gen(function*() {
        const caller = yield* CurrentIdentity
        if (caller.uuid === siliconId) return caller
        const endpoint = yield* endpoints.find(`silicon:${siliconId}`)
        const organizationId = Option.flatMap(endpoint, (found) => Option.fromNullable(found.organization_id))
        const role = Option.isSome(organizationId) ? yield* memberships.roleOf(caller.uuid, organizationId.value) : Option.none()
        if (caller.kind === "carbon" && Option.exists(role, (held) => held === "owner" || held === "admin")) return caller
        return yield* new SiliconSubscriberRequired({
          message: "Only the Silicon, or an admin of the organization its webhook is in, reads and replays its dead letters."
        })
      })
    return handlers
      .handle("configure", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          const answer = yield* webhooks.configureSilicon(
            yield* CurrentIdentity,
            path.organization_id,
            path.uuid,
            { url: payload.url, eventTypes: payload.event_types },
            stepUp.spend({ action: "organization.silicon_webhook.redirect", resourceId: path.uuid })
          )
          if (answer.webhook_signing_secret !== null) yield* carriesNewSecret
          return answer
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)))
      .handle("remove", ({ path }) =>
        Effect.flatMap(CurrentIdentity, (actor) => webhooks.removeSilicon(actor, path.organization_id, path.uuid)).pipe(
          sql.withTransaction,
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("deadLetters", ({ path, urlParams }) =>
        Effect.flatMap(subscriber(path.silicon_id), () => webhooks.deadLetters(`silicon:${path.silicon_id}`, urlParams)))
      .handle("replay", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          yield* needsKey(headers, "/api/v1/silicons/{silicon_id}/webhook/dead-letters/replays")
          const caller = yield* subscriber(path.silicon_id)
          return yield* webhooks.replay(`silicon:${path.silicon_id}`, Option.fromNullable(payload.delivery_ids), caller)
        }))
  })).pipe(Layer.provide([Memberships.Default, Webhooks.Default, WebhookEndpoints.Default]))

/** Both groups, for a bearer; StepUpGuard is left to the composition root. */
export const WebhooksLive = Layer.mergeAll(ApplicationWebhooksLive, SiliconWebhooksLive).pipe(
  Layer.provide(IamBearerLive),
  Layer.provide(IamSessions.Default)
)
