import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, Page } from "@platform/http"
import { Schema } from "effect"
import { AppOrAuthor } from "../app-management/AppOrAuthor.ts"
import { WebhookNotSet } from "../silicons/errors.ts"
import { SubscriptionExists, SubscriptionNotFound } from "./errors.ts"
import { NewSubscription, PingQueued, Subscription, SubscriptionPatch } from "./Subscription.ts"

const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })
const SubscriptionPath = Schema.Struct({ ...AppPath.fields, subscription_id: Schema.String.pipe(Schema.maxLength(64)) })

export const SubscriptionPage = Page(Subscription, "SubscriptionPage")

const NOT_FOUND = "404 subscription_not_found when the app has no subscription of this id."

export class SubscriptionsApi extends HttpApiGroup.make("subscriptions")
  .add(
    HttpApiEndpoint.post("create", "/v1/apps/:app_id/subscriptions")
      .setPath(AppPath)
      .setPayload(NewSubscription)
      .addSuccess(Subscription, { status: 201 })
      .addError(errorResponse(SubscriptionExists))
      .annotate(
        OpenApi.Description,
        "Subscribes the app's webhook or stream to account updates. At most one webhook and one stream subscription per app " +
          "(409 subscription_exists; a retry with the same Idempotency-Key gets the first answer). Without updates it takes " +
          "id_change, display_name_change, pfp_change, access_removed and account_deleted; \"all\" takes every update, later " +
          "additions included. While paused nothing is recorded for it. An app with a webhook URL and no webhook " +
          "subscription (or no stream subscription, for its stream) hears that default set."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/subscriptions")
      .setPath(AppPath)
      .addSuccess(SubscriptionPage)
      .annotate(OpenApi.Description, "The app's subscriptions (at most two, so one page).")
  )
  .add(
    HttpApiEndpoint.post("test", "/v1/apps/:app_id/subscriptions/test")
      .setPath(AppPath)
      .addSuccess(PingQueued, { status: 202 })
      .addError(errorResponse(WebhookNotSet))
      .annotate(
        OpenApi.Description,
        "Queues a ping to the app's webhook (type ping, data {message, app_id}), whatever its subscriptions; pings are never " +
          "replayed. 409 webhook_not_set without a webhook URL."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/apps/:app_id/subscriptions/:subscription_id")
      .setPath(SubscriptionPath)
      .addSuccess(Subscription)
      .addError(errorResponse(SubscriptionNotFound))
      .annotate(OpenApi.Description, `One subscription. ${NOT_FOUND}`)
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/apps/:app_id/subscriptions/:subscription_id")
      .setPath(SubscriptionPath)
      .setPayload(SubscriptionPatch)
      .addSuccess(Subscription)
      .addError(errorResponse(SubscriptionNotFound))
      .annotate(OpenApi.Description, `Changes the updates taken, or pauses (status paused) and resumes (active). ${NOT_FOUND}`)
  )
  .add(
    HttpApiEndpoint.del("delete", "/v1/apps/:app_id/subscriptions/:subscription_id")
      .setPath(SubscriptionPath)
      .addSuccess(Schema.Void)
      .addError(errorResponse(SubscriptionNotFound))
      .annotate(OpenApi.Description, `Deletes the subscription; its kind falls back to the default set. ${NOT_FOUND}`)
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "Apps")
{}
