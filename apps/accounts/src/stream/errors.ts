import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** The event stream's limits (spec 1, Limits: Event streams); both answers carry Retry-After. */

export class TooManyStreams extends ApiError<TooManyStreams>()("TooManyStreams", {
  code: "too_many_streams",
  status: 429,
  details: Schema.Struct({ limit: Schema.Number, retry_after_seconds: Schema.Number })
}) {}

export class StreamCapacityReached extends ApiError<StreamCapacityReached>()("StreamCapacityReached", {
  code: "stream_capacity_reached",
  status: 503,
  details: Schema.Struct({ retry_after_seconds: Schema.Number, request_id: Schema.optional(Schema.String) })
}) {}
