import {
  HttpApiError,
  HttpServerError,
  type HttpServerRequest,
  HttpServerRespondable,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Either, Option, ParseResult, Schema } from "effect"
import { AnsweredDefect, type ApiErrorInstance, isApiError } from "./ApiError.ts"
import { type EnvelopeStyle, envelopeOf } from "./ErrorResponse.ts"
import {
  InternalError,
  InvalidPath,
  InvalidQuery,
  MethodNotAllowed,
  RouteNotFound,
  ServiceUnavailable,
  ValidationFailed
} from "./errors.ts"
import type { ErrorFormat } from "./ErrorFormat.ts"
import { searchParamsOf } from "./RequestUrl.ts"
import type { Route, RouteTable } from "./RouteTable.ts"

/**
 * The one translator from an error to the response a client sees: the envelope, or the body of
 * the route's own error format (with the same headers, plus the format's).
 */
export const respondWithError = (
  error: ApiErrorInstance,
  format: Option.Option<ErrorFormat> = Option.none(),
  envelope: EnvelopeStyle = "compact"
): HttpServerResponse.HttpServerResponse => {
  const headers: Record<string, string> = {}
  if (error.status === 401) headers["cache-control"] = "no-store"
  const details = error.details as { retry_after_seconds?: unknown; allow?: unknown } | undefined
  if (typeof details?.retry_after_seconds === "number") headers["retry-after"] = String(details.retry_after_seconds)
  if (error instanceof MethodNotAllowed && Array.isArray(details?.allow)) headers["allow"] = details.allow.join(", ")
  if (Option.isNone(format)) {
    return HttpServerResponse.unsafeJson(envelopeOf(error.code, error, envelope), { status: error.status, headers })
  }
  if ("page" in format.value) return HttpServerResponse.setHeaders(format.value.page(error), headers)
  return HttpServerResponse.unsafeJson(format.value.body(error), {
    status: format.value.status?.(error) ?? error.status,
    headers: { ...headers, ...format.value.headers }
  })
}

const fieldsOf = (issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>) => {
  const fields: Record<string, string> = {}
  for (const issue of issues) {
    const key = issue.path.length === 0 ? "body" : issue.path.map(String).join(".")
    if (!(key in fields)) fields[key] = issue.message
  }
  return fields
}

const firstProblem = (error: ParseResult.ParseError) => {
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
  return { parameter: issue?.path.map(String).join(".") || "(none)", problem: issue?.message ?? "is invalid" }
}

/**
 * A decode failure names the part of the request that failed: the framework
 * reports one error for all parts, so decode path and query again (cheap, and
 * only on the failure path) to tell `invalid_path` and `invalid_query` from a
 * body's `validation_failed`.
 */
const classifyDecodeError = (
  error: HttpApiError.HttpApiDecodeError,
  table: RouteTable,
  route: Route | undefined,
  request: HttpServerRequest.HttpServerRequest,
  path: string,
  bodyDecodes: () => boolean
): ApiErrorInstance => {
  if (route && Option.isSome(route.pathSchema)) {
    const decoded = Schema.decodeUnknownEither(route.pathSchema.value)(table.params(route, path))
    if (Either.isLeft(decoded)) {
      const problem = firstProblem(decoded.left)
      return new InvalidPath({ message: `Path parameter ${problem.parameter} ${problem.problem}`, details: problem })
    }
  }
  if (route && Option.isSome(route.urlParamsSchema) && bodyDecodes()) {
    const decoded = Schema.decodeUnknownEither(route.urlParamsSchema.value)(searchParamsOf(request.url))
    if (Either.isLeft(decoded)) {
      const problem = firstProblem(decoded.left)
      return new InvalidQuery({ message: `Query parameter ${problem.parameter}: ${problem.problem}`, details: problem })
    }
  }
  return new ValidationFailed({
    message: "The request body has invalid values.",
    details: { fields: fieldsOf(error.issues) }
  })
}

/** A 5xx names its request id so that a report can be matched with our logs. */
const withRequestId = (error: ApiErrorInstance, requestId: string): ApiErrorInstance =>
  error.status < 500 ? error : {
    _tag: error._tag,
    code: error.code,
    status: error.status,
    message: error.message,
    hint: error.hint,
    details: { ...(error.details as object | undefined), request_id: requestId }
  }

export interface FailureContext {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly path: string
  readonly route: Route | undefined
  readonly table: RouteTable
  readonly requestId: string
  readonly bodyDecodes: () => boolean
  /** Whether a defect means a dependency is out of reach for now (see ConventionsOptions.unavailable). */
  readonly unavailable: (defect: unknown) => boolean
  /** A browser asking for a page route: every failure answers as the service's error page (see ConventionsOptions.errorPage). */
  readonly pageFormat: Option.Option<ErrorFormat>
  /** How the envelope writes empty members (see ConventionsOptions.envelope). */
  readonly envelope: EnvelopeStyle
}

/** The error format of the request's route, or of its path when the method is wrong (a 405 answers in it too). */
const formatOf = (context: FailureContext): Option.Option<ErrorFormat> =>
  Option.isSome(context.pageFormat)
    ? context.pageFormat
    : context.route === undefined
    ? context.table.errorFormatAt(context.path)
    : context.route.errorFormat

/** What a client waits before retrying during an outage. */
const OUTAGE_RETRY_AFTER_SECONDS = 2

const outageResponse = (context: FailureContext): HttpServerResponse.HttpServerResponse => {
  const response = respondWithError(
    new ServiceUnavailable({
      message: "A service we depend on is unavailable for a moment. Retry with the same Idempotency-Key.",
      details: { request_id: context.requestId }
    }),
    formatOf(context),
    context.envelope
  )
  return HttpServerResponse.setHeader(response, "retry-after", String(OUTAGE_RETRY_AFTER_SECONDS))
}

/** Turns whatever the app failed with into the envelope; defects are logged with their cause and never shown. */
export const translateFailure = (
  cause: Cause.Cause<unknown>,
  context: FailureContext,
  /** "app": the route's handler or middleware, whose declared errors answer as declared, even on a route with its own format. */
  source: "app" | "conventions"
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.failureOption(cause)
  const format = formatOf(context)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isApiError(error)) {
      return Effect.succeed(respondWithError(
        withRequestId(error, context.requestId),
        source === "app" ? context.pageFormat : format,
        context.envelope
      ))
    }
    if (error instanceof HttpApiError.HttpApiDecodeError) {
      return Effect.succeed(respondWithError(
        classifyDecodeError(error, context.table, context.route, context.request, context.path, context.bodyDecodes),
        format,
        context.envelope
      ))
    }
    if (error instanceof HttpServerError.RouteNotFound) {
      const allow = context.table.allowedMethods(context.path)
      return Effect.succeed(respondWithError(
        allow.length > 0
          ? new MethodNotAllowed({
            message: `${context.request.method} is not allowed on ${context.path}.`,
            details: { allow }
          })
          : new RouteNotFound({ message: `No route for ${context.request.method} ${context.path}.` }),
        format,
        context.envelope
      ))
    }
    // Errors with their own wire format (the OAuth endpoints' RFC 6749 bodies) answer for themselves.
    if (HttpServerRespondable.isRespondable(error)) return HttpServerRespondable.toResponse(error)
  }
  // The client went away: nothing to answer.
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
  const answered = Cause.find(cause, (reason) =>
    reason._tag === "Die" && reason.defect instanceof AnsweredDefect ? Option.some(reason.defect.error) : Option.none())
  if (Option.isSome(answered)) {
    return Effect.succeed(respondWithError(withRequestId(answered.value, context.requestId), format, context.envelope))
  }
  const outage = Cause.find(cause, (reason) =>
    reason._tag === "Die" && context.unavailable(reason.defect) ? Option.some(reason.defect) : Option.none())
  if (Option.isSome(outage)) {
    return Effect.logWarning({ event: "dependency_unavailable", request_id: context.requestId }, outage.value).pipe(
      Effect.as(outageResponse(context))
    )
  }
  return Effect.logError("request failed", cause).pipe(
    Effect.as(respondWithError(
      new InternalError({
        message: "Something went wrong on our side. Retry with the same Idempotency-Key.",
        details: { request_id: context.requestId }
      }),
      format,
      context.envelope
    ))
  )
}
