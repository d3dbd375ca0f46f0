import { ApiError } from "@platform/http"

/** Spec 1, Errors: a second subscription of a kind the app has (an idempotent retry gets the first answer instead). */
export class SubscriptionExists extends ApiError<SubscriptionExists>()("SubscriptionExists", {
  code: "subscription_exists",
  status: 409
}) {}

export class SubscriptionNotFound extends ApiError<SubscriptionNotFound>()("SubscriptionNotFound", {
  code: "subscription_not_found",
  status: 404
}) {}
