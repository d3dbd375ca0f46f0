import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { MAX_REPLAY } from "@platform/webhooks"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { IamEventType } from "../events/IamEventType.ts"
import { ApplicationPath } from "../applications/Api.ts"
import { ApplicationNotFound, ApplicationOwnerRequired } from "../applications/errors.ts"
import { MemberPath } from "../organizations/Api.ts"
import { AdminRequired, MemberNotFound, OrganizationNotFound } from "../organizations/errors.ts"
import {
  IdempotencyKeyRequired,
  SiliconSubscriberRequired,
  WebhookNotConfigured,
  WebhookSecretRefused,
  WebhookUrlRefused
} from "./errors.ts"

const SigningSecret = Schema.String.pipe(Schema.maxLength(200)).annotations({
  description: "32 to 200 printable ASCII characters; keep it: IAM shows a generated one only once"
})

export const WebhookSetting = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)).annotations({ description: "https (http on loopback outside production)" })
}).annotations({ identifier: "ApplicationWebhookSetting" })

export const ApplicationWebhook = Schema.Struct({
  app_id: Schema.String,
  url: Schema.String,
  key_version: Schema.Number,
  webhook_signing_secret: Schema.NullOr(Schema.String).annotations({
    description: "whsec_…: the first secret, shown only when IAM made it (the first time a URL is set); null otherwise"
  })
}).annotations({ identifier: "ApplicationWebhook" })

export const SecretRotation = Schema.Struct({ webhook_secret: SigningSecret }).annotations({ identifier: "WebhookSecretRotationRequest" })

export const RotatedWebhookSecret = Schema.Struct({
  app_id: Schema.String,
  key_version: Schema.Number.annotations({ description: "Signs every delivery written from now on, and replays" }),
  previous_key_version: Schema.Number,
  previous_accepted_until: Schema.String.annotations({ description: "Deliveries already queued keep the previous version until then" })
}).annotations({ identifier: "WebhookSecretRotation" })

export const TestWebhookSetting = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  webhook_signing_secret: Schema.optional(SigningSecret)
}).annotations({ identifier: "TestWebhookSetting" })

export const TestWebhook = Schema.Struct({
  app_id: Schema.String,
  url: Schema.String,
  testing_key: Schema.String.annotations({ description: "test.testing_key of every test delivery" }),
  key_version: Schema.Number,
  webhook_signing_secret: Schema.NullOr(Schema.String).annotations({
    description: "A fresh test-only secret, shown only here (replayed for 10 minutes to the same Idempotency-Key); null when one was supplied"
  })
}).annotations({ identifier: "TestWebhook" })

export const DeadLetter = Schema.Struct({
  delivery_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  cycle_attempt_count: Schema.Number,
  manual_replay_count: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotations({ identifier: "WebhookDeadLetter" })

export const ReplayRequest = Schema.Struct({
  delivery_ids: Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.maxLength(64))).pipe(Schema.minItems(1), Schema.maxItems(MAX_REPLAY)).annotations({
      description: `1 to ${MAX_REPLAY} dead letters, replayed in this order; without it the oldest ${MAX_REPLAY}`
    })
  )
}).annotations({ identifier: "WebhookReplayRequest" })

export const ReplayAnswer = Schema.Struct({
  replayed: Schema.Array(Schema.String),
  skipped: Schema.Array(Schema.Struct({ id: Schema.String, reason: Schema.Literal("not_found", "pending", "not_replayable") }))
}).annotations({ identifier: "WebhookReplay" })

const IdempotencyHeader = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String).annotations({ description: "Required: a retry with the same key replays nothing twice" })
})

export const SiliconPath = Schema.Struct({ silicon_id: Schema.String })

export const SiliconWebhookSetting = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  event_types: Schema.Array(IamEventType).pipe(Schema.maxItems(100))
}).annotations({ identifier: "SiliconWebhookSetting" })

export const SiliconWebhook = Schema.Struct({
  silicon_uuid: Schema.String,
  organization_id: Schema.String,
  url: Schema.String,
  event_types: Schema.Array(Schema.String),
  key_version: Schema.Number,
  webhook_signing_secret: Schema.NullOr(Schema.String).annotations({ description: "The first secret, shown once; null after" })
}).annotations({ identifier: "SiliconWebhook" })

/** An application's webhook (its owners: decisions.md, "Application ownership"), direct IAM bearer. */
export class ApplicationWebhooksApi extends HttpApiGroup.make("applicationWebhooks")
  .add(
    HttpApiEndpoint.put("set", "/api/v1/applications/:app_id/webhook")
      .setPath(ApplicationPath)
      .setPayload(WebhookSetting)
      .addSuccess(ApplicationWebhook)
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(errorResponse(WebhookUrlRefused))
      .addError(errorResponse(WebhookSecretRefused))
      .annotate(OpenApi.Description, "Sets where the application's webhooks go (an owner). The first time, IAM makes the signing secret (key version 1) and shows it only here.")
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/api/v1/applications/:app_id/webhook-secret-rotations")
      .setPath(ApplicationPath)
      .setPayload(SecretRotation)
      .addSuccess(RotatedWebhookSecret, { status: 201 })
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(errorResponse(WebhookNotConfigured))
      .addError(errorResponse(WebhookSecretRefused))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Makes webhook_secret (the successor) the current key version: new deliveries and replays are signed with it; deliveries already queued keep their bytes and their version, which stays accepted for 24 hours. An owner, with X-Step-Up-Token for application.webhook_secret.rotate on this app_id."
      )
  )
  .add(
    HttpApiEndpoint.put("setTest", "/api/v1/applications/:app_id/test-webhook")
      .setPath(ApplicationPath)
      .setPayload(TestWebhookSetting)
      .addSuccess(TestWebhook)
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(errorResponse(WebhookUrlRefused))
      .addError(errorResponse(WebhookSecretRefused))
      .annotate(
        OpenApi.Description,
        "Sets (or replaces) the application's test webhook: each event also goes there as one top-level test object {testing_key, metadata, data}. Answers a fresh test-only webhook_signing_secret unless one was supplied (replayed for 10 minutes to the same Idempotency-Key)."
      )
  )
  .add(
    HttpApiEndpoint.get("deadLetters", "/api/v1/applications/:app_id/webhook/dead-letters")
      .setPath(ApplicationPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(DeadLetter, "WebhookDeadLetterPage"))
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "Deliveries whose retries ran out, newest first (an owner).")
  )
  .add(
    HttpApiEndpoint.post("replay", "/api/v1/applications/:app_id/webhook/dead-letters/replays")
      .setPath(ApplicationPath)
      .setHeaders(IdempotencyHeader)
      .setPayload(ReplayRequest)
      .addSuccess(ReplayAnswer)
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(errorResponse(IdempotencyKeyRequired))
      .annotate(
        OpenApi.Description,
        "Replays up to 100 dead letters in order (an owner; Idempotency-Key required): same event id, cycle_attempt_count reset, manual_replay_count plus one, to the current URL with the current secret; the requester is recorded."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Application webhooks")
{}

/** A Silicon subscriber's webhook: configured by an organization admin, its dead letters read by the Silicon or those admins. */
export class SiliconWebhooksApi extends HttpApiGroup.make("siliconWebhooks")
  .add(
    HttpApiEndpoint.put("configure", "/api/v1/organizations/:organization_id/silicons/:uuid/webhook")
      .setPath(MemberPath)
      .setPayload(SiliconWebhookSetting)
      .addSuccess(SiliconWebhook)
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(WebhookUrlRefused))
      .addError(errorResponse(WebhookSecretRefused))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Points a Silicon member's webhook at url for event_types (any IAM event, sso.* included). A new or changed URL needs X-Step-Up-Token for organization.silicon_webhook.redirect on the Silicon's uuid. The first secret is shown once."
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/v1/organizations/:organization_id/silicons/:uuid/webhook")
      .setPath(MemberPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(errorResponse(OrganizationNotFound))
      .addError(errorResponse(AdminRequired))
      .addError(errorResponse(MemberNotFound))
      .addError(errorResponse(WebhookNotConfigured))
      .annotate(OpenApi.Description, "Removes a Silicon member's webhook (an admin); its pending deliveries become dead letters.")
  )
  .add(
    HttpApiEndpoint.get("deadLetters", "/api/v1/silicons/:silicon_id/webhook/dead-letters")
      .setPath(SiliconPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(DeadLetter, "WebhookDeadLetterPage"))
      .addError(errorResponse(SiliconSubscriberRequired))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The Silicon subscriber's dead letters (the Silicon, or an admin of the organization its webhook is in).")
  )
  .add(
    HttpApiEndpoint.post("replay", "/api/v1/silicons/:silicon_id/webhook/dead-letters/replays")
      .setPath(SiliconPath)
      .setHeaders(IdempotencyHeader)
      .setPayload(ReplayRequest)
      .addSuccess(ReplayAnswer)
      .addError(errorResponse(SiliconSubscriberRequired))
      .addError(errorResponse(IdempotencyKeyRequired))
      .annotate(OpenApi.Description, "Replays the Silicon subscriber's dead letters, as for applications.")
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Silicon webhooks")
{}
