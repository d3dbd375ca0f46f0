import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, lenient, RateLimited } from "@platform/http"
import { Schema } from "effect"

export const TELEMETRY_BATCH_MAX = 50
export const TELEMETRY_DATA_MAX_BYTES = 8192

/** Spec 1, Sizes: data 8 KB, measured as its JSON text in UTF-8. */
const EventData = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({ jsonSchema: { type: "object" } }).pipe(
  Schema.filter((data) => Buffer.byteLength(JSON.stringify(data), "utf8") <= TELEMETRY_DATA_MAX_BYTES, {
    message: () => `must be at most ${TELEMETRY_DATA_MAX_BYTES} bytes as JSON`
  })
).annotations({ description: "Free-form object, at most 8 KB as JSON" })

export const TelemetryEvent = Schema.Struct({
  name: Schema.String.pipe(Schema.pattern(/^[a-z0-9_.]{1,64}$/, { message: () => "must match ^[a-z0-9_.]{1,64}$" })),
  source: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))),
  step: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  data: Schema.optional(EventData)
}).annotations({ identifier: "TelemetryEvent" })
export type TelemetryEvent = typeof TelemetryEvent.Type

/** Unknown fields are ignored (spec 1 lists telemetry among neither the strict nor the lenient bodies): older servers take newer clients' events. */
export const TelemetryBatch = lenient(Schema.Struct({
  events: Schema.Array(TelemetryEvent).pipe(Schema.minItems(1), Schema.maxItems(TELEMETRY_BATCH_MAX))
})).annotations({ identifier: "TelemetryBatch" })

export class TelemetryApi extends HttpApiGroup.make("telemetry")
  .add(
    HttpApiEndpoint.post("events", "/v1/telemetry/events")
      .setPayload(TelemetryBatch)
      .addSuccess(Schema.Void, { status: 202 })
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Public. A batch of 1 to 50 events ({name ^[a-z0-9_.]{1,64}$, source? up to 64 characters, step? up to 200, data? an object up to 8 KB as JSON}); unknown fields are ignored. 202 with no body. With `X-Accounts-Telemetry: off` nothing is stored and the answer is the same 202. 120 per minute per IP."
      )
  )
  .annotate(OpenApi.Title, "Telemetry")
{}
