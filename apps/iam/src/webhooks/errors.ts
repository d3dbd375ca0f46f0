import { ApiError } from "@platform/http"

/** The webhook URL is not one IAM may call (not absolute, not https in production, a private address). */
export class WebhookUrlRefused extends ApiError<WebhookUrlRefused>()("WebhookUrlRefused", {
  code: "webhook_url_refused",
  status: 422
}) {}

/** A supplied signing secret is not 32 to 200 printable ASCII characters. */
export class WebhookSecretRefused extends ApiError<WebhookSecretRefused>()("WebhookSecretRefused", {
  code: "webhook_secret_refused",
  status: 422
}) {}

/** The application or Silicon has no webhook to rotate the secret of. */
export class WebhookNotConfigured extends ApiError<WebhookNotConfigured>()("WebhookNotConfigured", {
  code: "webhook_not_configured",
  status: 404
}) {}

/** A replay changes state that must not change twice: it needs an Idempotency-Key. */
export class IdempotencyKeyRequired extends ApiError<IdempotencyKeyRequired>()("IdempotencyKeyRequired", {
  code: "idempotency_key_required",
  status: 400
}) {}

/** The Silicon is not an active member of the organization (or no such Silicon). */
export class SiliconMemberNotFound extends ApiError<SiliconMemberNotFound>()("SiliconMemberNotFound", {
  code: "silicon_not_found",
  status: 404
}) {}

/** Only the Silicon itself, or an admin of an organization it has a webhook in, reads and replays its dead letters. */
export class SiliconSubscriberRequired extends ApiError<SiliconSubscriberRequired>()("SiliconSubscriberRequired", {
  code: "silicon_subscriber_required",
  status: 403
}) {}
