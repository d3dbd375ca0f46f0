import type { HttpServerResponse } from "@effect/platform"
import { Option, type Schema, SchemaAST } from "effect"
import type { ApiErrorInstance } from "./ApiError.ts"

/**
 * A payload schema annotation for routes whose errors have their own wire format (the OAuth
 * endpoints' RFC 6749 bodies). Every error the conventions answer on such a route — a refused
 * body (size, media type, JSON), a refused query or version, a wrong method, an outage, a defect,
 * an error of the `around` wrapper — is written with the route's `body`, keeping its status and
 * the conventions' headers (Allow, Retry-After), plus the format's own `headers`.
 */
export const ErrorFormatId: unique symbol = Symbol.for("@platform/http/ErrorFormat")

export interface JsonErrorFormat {
  /** The JSON body answering `error`. */
  readonly body: (error: ApiErrorInstance) => unknown
  /** The status answering `error`, when the format has its own (default: the error's). */
  readonly status?: (error: ApiErrorInstance) => number
  /** Headers every error response of the route carries. */
  readonly headers?: Readonly<Record<string, string>>
}

/** A whole response for `error`: the page a browser is shown on a page route (see `HtmlPage`). */
export interface PageErrorFormat {
  readonly page: (error: ApiErrorInstance) => HttpServerResponse.HttpServerResponse
}

export type ErrorFormat = JsonErrorFormat | PageErrorFormat

export const errorFormatOf = (payload: Option.Option<Schema.Schema.AnyNoContext>): Option.Option<ErrorFormat> =>
  Option.flatMap(payload, (schema) => SchemaAST.getAnnotation<ErrorFormat>(schema.ast, ErrorFormatId))
