import type { HttpServerResponse } from "@effect/platform"
import { type Effect, Option, type Schema, SchemaAST } from "effect"
import type { ApiErrorInstance } from "./ApiError.ts"

/**
 * A payload schema annotation for routes whose errors have their own wire format (the OAuth
 * endpoints' RFC 6749 bodies): how the conventions answer on that route when they refuse the
 * body's content (malformed or too deep JSON, text no field may hold, a missing Content-Type),
 * and when a dependency is unavailable. Other routes answer in the service's envelope.
 */
export const ErrorFormatId: unique symbol = Symbol.for("@platform/http/ErrorFormat")

export interface ErrorFormat {
  readonly refuseBody: (error: ApiErrorInstance) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  readonly unavailable: (retryAfterSeconds: number) => HttpServerResponse.HttpServerResponse
}

export const errorFormatOf = (payload: Option.Option<Schema.Schema.AnyNoContext>): Option.Option<ErrorFormat> =>
  Option.flatMap(payload, (schema) => SchemaAST.getAnnotation<ErrorFormat>(schema.ast, ErrorFormatId))
