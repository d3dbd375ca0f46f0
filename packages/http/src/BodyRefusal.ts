import type { HttpServerResponse } from "@effect/platform"
import { type Effect, Option, type Schema, SchemaAST } from "effect"
import type { ApiErrorInstance } from "./ApiError.ts"

/**
 * A payload schema annotation for routes whose errors have their own wire
 * format (the OAuth endpoints' RFC 6749 bodies): how the conventions answer
 * when they refuse the body's content (malformed or too deep JSON, text
 * no field may hold, a missing Content-Type) on that route.
 */
export const BodyRefusalId: unique symbol = Symbol.for("@platform/http/BodyRefusal")

export type BodyRefusal = (error: ApiErrorInstance) => Effect.Effect<HttpServerResponse.HttpServerResponse>

export const bodyRefusalOf = (payload: Option.Option<Schema.Schema.AnyNoContext>): Option.Option<BodyRefusal> =>
  Option.flatMap(payload, (schema) => SchemaAST.getAnnotation<BodyRefusal>(schema.ast, BodyRefusalId))
