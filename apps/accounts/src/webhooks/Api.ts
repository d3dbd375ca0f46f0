import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields, RateLimited, strict } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly, SiliconOnly } from "../auth/errors.ts"
import { AppOrAuthor } from "../app-management/AppOrAuthor.ts"
import { SiliconNotFound, WebhookNotSet } from "../silicons/errors.ts"

const Text = (max: number, description: string) => Schema.String.pipe(Schema.maxLength(max)).annotations({ description })

export const WebhookSetting = strict(Schema.Struct({
  url: Text(4096, "https URL on a public address, at most 2048 characters"),
  rotate_secret: Schema.optional(Schema.Boolean.annotations({
    description: "true: a new secret replaces the current one (the old one stops at once); a webhook without a secret always gets one"
  }))
})).annotations({ identifier: "WebhookSetting" })

export const WebhookSet = Schema.Struct({
  webhook_url: Schema.String,
  webhook_secret: Schema.NullOr(Schema.String).annotations({
    description: "The new whsec_ secret, shown only here: it signs everything from now on, retries and replays included. null when the secret was kept."
  })
}).annotations({ identifier: "WebhookSet" })

export const WebhookDelivery = Schema.Struct({
  delivery_id: Schema.String.annotations({ description: "Sent as X-Accounts-Delivery-Id; the same on every retry and replay" }),
  event_id: Schema.String,
  event_type: Schema.String,
  status: Schema.Literal("pending", "delivered", "failed"),
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String).annotations({ description: "Why the last attempt failed (or why the delivery is held)" }),
  manual_replays: Schema.Number,
  created_at: Schema.String,
  next_attempt_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebhookDelivery" })

export const WebhookDeliveryPage = Page(WebhookDelivery, "WebhookDeliveryPage")

export const DeliveryQuery = Schema.Struct({
  status: Schema.optional(Schema.Literal("pending", "delivered", "failed")),
  ...PageQueryFields
})

export const ReplayRequest = strict(Schema.Struct({
  delivery_ids: Schema.optional(Schema.Array(Text(100, "A delivery id")).annotations({ description: "1 to 100 failed or delivered deliveries" })),
  status: Schema.optional(Schema.Literal("failed").annotations({ description: "Replays the oldest 100 failed deliveries" })),
  since: Schema.optional(Text(64, "With status: only deliveries created at or after this ISO 8601 time"))
})).annotations({ identifier: "WebhookReplayRequest" })

export const ReplayResult = Schema.Struct({
  replayed: Schema.Array(Schema.String).annotations({ description: "Delivery ids set pending again, oldest first" }),
  skipped: Schema.Array(Schema.Struct({
    delivery_id: Schema.String,
    reason: Schema.Literal("not_found", "pending", "not_replayable")
  })).annotations({ description: "Named ids left as they were: not this webhook's, still pending, or a test ping" })
}).annotations({ identifier: "WebhookReplayResult" })

export const PingQueued = Schema.Struct({ delivery_id: Schema.String, event_id: Schema.String })
  .annotations({ identifier: "WebhookPingQueued" })

const SET =
  "Sets the webhook URL (https on a public address; checked now and again at each connection). A new whsec_ secret is made and shown only in this answer when none exists or rotate_secret is true; it signs everything from then on, retries and replays included."
const REMOVE = "Removes the webhook URL and its secret; its pending deliveries fail at once (replayable after a new URL is set)."
const LIST = "Deliveries to this webhook, newest first: status (pending, delivered, failed), attempts, last error, manual replays."
const REPLAY =
  "Sets deliveries pending again, keeping their delivery and event ids, to the current URL signed with the current secret: either delivery_ids (1 to 100, failed or delivered) or status failed with optional since (the oldest 100). Test pings are never replayed."
const TEST = "Queues a ping event to the webhook (10 per hour per Silicon). Pings are never replayed."

const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })

export class AppWebhookApi extends HttpApiGroup.make("appWebhook")
  .add(
    HttpApiEndpoint.put("set", "/v1/apps/:app_id/webhook").setPath(AppPath).setPayload(WebhookSetting).addSuccess(WebhookSet)
      .annotate(OpenApi.Description, SET)
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/apps/:app_id/webhook").setPath(AppPath).addSuccess(Schema.Void)
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, REMOVE)
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/v1/apps/:app_id/webhook/deliveries").setPath(AppPath).setUrlParams(DeliveryQuery)
      .addSuccess(WebhookDeliveryPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, LIST)
  )
  .add(
    HttpApiEndpoint.post("replay", "/v1/apps/:app_id/webhook/replay").setPath(AppPath).setPayload(ReplayRequest)
      .addSuccess(ReplayResult)
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, REPLAY)
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "App webhook")
{}

const InCustody = Schema.Struct({ uuid: Schema.String.pipe(Schema.maxLength(16)).annotations({ description: "The Silicon's uuid" }) })
const CUSTODY = "For a Silicon in the caller's custody."

export class SiliconWebhookApi extends HttpApiGroup.make("siliconWebhook")
  .add(
    HttpApiEndpoint.put("setOwn", "/v1/me/webhook").setPayload(WebhookSetting).addSuccess(WebhookSet)
      .addError(errorResponse(SiliconOnly))
      .annotate(OpenApi.Description, `The signed-in Silicon's webhook. ${SET}`)
  )
  .add(
    HttpApiEndpoint.del("removeOwn", "/v1/me/webhook").addSuccess(Schema.Void)
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, REMOVE)
  )
  .add(
    HttpApiEndpoint.get("deliveriesOwn", "/v1/me/webhook/deliveries").setUrlParams(DeliveryQuery).addSuccess(WebhookDeliveryPage)
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, LIST)
  )
  .add(
    HttpApiEndpoint.post("replayOwn", "/v1/me/webhook/replay").setPayload(ReplayRequest).addSuccess(ReplayResult)
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, REPLAY)
  )
  .add(
    HttpApiEndpoint.post("testOwn", "/v1/me/webhook/test").addSuccess(PingQueued, { status: 202 })
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(WebhookNotSet))
      .addError(errorResponse(RateLimited))
      .annotate(OpenApi.Description, TEST)
  )
  .add(
    HttpApiEndpoint.put("setInCustody", "/v1/me/silicons/:uuid/webhook").setPath(InCustody).setPayload(WebhookSetting)
      .addSuccess(WebhookSet)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(OpenApi.Description, `${CUSTODY} ${SET}`)
  )
  .add(
    HttpApiEndpoint.del("removeInCustody", "/v1/me/silicons/:uuid/webhook").setPath(InCustody).addSuccess(Schema.Void)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, `${CUSTODY} ${REMOVE}`)
  )
  .add(
    HttpApiEndpoint.get("deliveriesInCustody", "/v1/me/silicons/:uuid/webhook/deliveries").setPath(InCustody)
      .setUrlParams(DeliveryQuery).addSuccess(WebhookDeliveryPage)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, `${CUSTODY} ${LIST}`)
  )
  .add(
    HttpApiEndpoint.post("replayInCustody", "/v1/me/silicons/:uuid/webhook/replay").setPath(InCustody).setPayload(ReplayRequest)
      .addSuccess(ReplayResult)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(WebhookNotSet))
      .annotate(OpenApi.Description, `${CUSTODY} ${REPLAY}`)
  )
  .add(
    HttpApiEndpoint.post("testInCustody", "/v1/me/silicons/:uuid/webhook/test").setPath(InCustody)
      .addSuccess(PingQueued, { status: 202 })
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(WebhookNotSet))
      .addError(errorResponse(RateLimited))
      .annotate(OpenApi.Description, `${CUSTODY} ${TEST}`)
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Silicon webhook")
{}
