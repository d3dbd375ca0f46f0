import { Schema } from "effect"
import { ApiError } from "./ApiError.ts"

/** The request-format errors every service shares (spec 1, Errors: Request format). */

export class RouteNotFound extends ApiError<RouteNotFound>()("RouteNotFound", {
  code: "route_not_found",
  status: 404
}) {}

export class MethodNotAllowed extends ApiError<MethodNotAllowed>()("MethodNotAllowed", {
  code: "method_not_allowed",
  status: 405,
  details: Schema.Struct({ allow: Schema.Array(Schema.String) })
}) {}

export class InvalidJson extends ApiError<InvalidJson>()("InvalidJson", {
  code: "invalid_json",
  status: 400
}) {}

/** A body that is valid JSON but not the JSON object the route takes (an array, a string, a number, null). */
export class InvalidBody extends ApiError<InvalidBody>()("InvalidBody", {
  code: "invalid_body",
  status: 400
}) {}

/** The request ran past its route's time budget (spec 1: 30 seconds unless the route says otherwise). */
export class RequestTimeout extends ApiError<RequestTimeout>()("RequestTimeout", {
  code: "request_timeout",
  status: 503
}) {}

export class InvalidContentType extends ApiError<InvalidContentType>()("InvalidContentType", {
  code: "invalid_content_type",
  status: 400,
  details: Schema.Struct({ expected: Schema.Array(Schema.String) })
}) {}

export class UnsupportedMediaType extends ApiError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: "unsupported_media_type",
  status: 415,
  details: Schema.Struct({ received: Schema.String, expected: Schema.Array(Schema.String) })
}) {}

export class PayloadTooLarge extends ApiError<PayloadTooLarge>()("PayloadTooLarge", {
  code: "payload_too_large",
  status: 413,
  details: Schema.Struct({ limit_bytes: Schema.Number })
}) {}

export const FieldErrors = Schema.Struct({
  fields: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ description: "Field path (dot-separated) to the problem with its value" })

export class ValidationFailed extends ApiError<ValidationFailed>()("ValidationFailed", {
  code: "validation_failed",
  status: 422,
  details: FieldErrors
}) {}

const ParameterProblem = Schema.Struct({ parameter: Schema.String, problem: Schema.String })

export class InvalidQuery extends ApiError<InvalidQuery>()("InvalidQuery", {
  code: "invalid_query",
  status: 400,
  details: ParameterProblem
}) {}

export class InvalidPath extends ApiError<InvalidPath>()("InvalidPath", {
  code: "invalid_path",
  status: 400,
  details: ParameterProblem
}) {}

export class UnsupportedVersion extends ApiError<UnsupportedVersion>()("UnsupportedVersion", {
  code: "unsupported_version",
  status: 400,
  details: Schema.Struct({
    requested: Schema.String,
    supported: Schema.Array(Schema.String),
    current: Schema.String
  })
}) {}

export class InternalError extends ApiError<InternalError>()("InternalError", {
  code: "internal_error",
  status: 500,
  details: Schema.Struct({ request_id: Schema.String })
}) {}

export class ServiceUnavailable extends ApiError<ServiceUnavailable>()("ServiceUnavailable", {
  code: "service_unavailable",
  status: 503,
  details: Schema.Struct({ request_id: Schema.String })
}) {}

const RetryAfter = Schema.Struct({ retry_after_seconds: Schema.Number })

export class RateLimited extends ApiError<RateLimited>()("RateLimited", {
  code: "rate_limited",
  status: 429,
  details: RetryAfter
}) {}

export class InvalidIdempotencyKey extends ApiError<InvalidIdempotencyKey>()("InvalidIdempotencyKey", {
  code: "invalid_idempotency_key",
  status: 400
}) {}

export class IdempotencyKeyReused extends ApiError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  code: "idempotency_key_reused",
  status: 409
}) {}

/** The request with this key ran, but its answer (which carried a new secret) is no longer kept. */
export class IdempotencyResultUnavailable extends ApiError<IdempotencyResultUnavailable>()("IdempotencyResultUnavailable", {
  code: "idempotency_result_unavailable",
  status: 409
}) {}

export class IdempotencyInProgress extends ApiError<IdempotencyInProgress>()("IdempotencyInProgress", {
  code: "idempotency_in_progress",
  status: 409
}) {}

export class OriginNotAllowed extends ApiError<OriginNotAllowed>()("OriginNotAllowed", {
  code: "origin_not_allowed",
  status: 403
}) {}
