import { HttpApiSchema } from "@effect/platform"
import { type ApiErrorInstance, type ErrorFormat, ErrorFormatId } from "@platform/http"
import { Schema } from "effect"
import { NO_STORE_HEADERS, type OAuthErrorCode } from "./OAuthError.ts"

const Parameters = Schema.Record({ key: Schema.String, value: Schema.String })

/** RFC 6749 has no code for a server fault or an outage in §5.2; §4.1.2.1 names these two, and §5.2 allows more. */
type ConventionsCode = OAuthErrorCode | "server_error" | "temporarily_unavailable"

const codeFor = (status: number): ConventionsCode =>
  status === 401 ? "invalid_client" : status === 429 || status === 503 ? "temporarily_unavailable" : status >= 500
  ? "server_error"
  : "invalid_request"

const describe = (error: ApiErrorInstance): string => {
  const details = error.details as { fields?: Record<string, string>; request_id?: unknown } | undefined
  const [field] = Object.entries(details?.fields ?? {})
  const described = field === undefined ? error.message : `Parameter ${field[0]} ${field[1]}.`
  return typeof details?.request_id === "string" ? `${described} (request ${details.request_id})` : described
}

/** Statuses HTTP itself gives a meaning an OAuth client can act on; any other refusal is §5.2's 400. */
const KEPT_STATUSES: ReadonlySet<number> = new Set([401, 405, 413, 415, 429])

/**
 * RFC 6749 bodies for every error the conventions answer on an OAuth endpoint: a refused body
 * (malformed or too deep JSON, NUL in a value), query, version or Idempotency-Key is 400
 * invalid_request, and so are a wrong method, a body too large and a wrong media type with their
 * HTTP statuses (405 with Allow, 413, 415); an outage or a rate limit is temporarily_unavailable
 * with Retry-After (503, 429), a fault server_error (500). Never cached.
 */
const oauthErrorFormat: ErrorFormat = {
  body: (error) => ({ error: codeFor(error.status), error_description: describe(error) }),
  status: (error) => error.status >= 500 || KEPT_STATUSES.has(error.status) ? error.status : 400,
  headers: NO_STORE_HEADERS
}

/** A parameter of an OAuth request body, documented; every value is a string. */
export const oauthParameter = (description: string) => Schema.String.annotations({ description })

/**
 * One shape of an OAuth request body (a grant's, an endpoint's), under its identifier in
 * `/openapi.json`: its parameters, and any other string parameter, which the endpoint ignores.
 */
export const oauthRequest = <Fields extends Schema.Struct.Fields>(identifier: string, description: string, fields: Fields) =>
  Schema.Struct(fields, Parameters).annotations({ identifier, description })

/**
 * What an OAuth endpoint declares as its payload: a form body or a JSON object of strings, in the
 * shapes given (a union of them per media type), or any parameters when none is given. The handler
 * reads the raw body with `oauthParameters` (which refuses repeated parameters): the shapes
 * document the body in `/openapi.json`, and their annotation gives the route RFC 6749 error bodies.
 */
export const oauthBody = (requests: ReadonlyArray<Schema.Schema.AnyNoContext> = [Parameters]) => {
  // One member per media type, so that each documents its shapes as one flat anyOf.
  const shapes = Schema.Union(...requests)
  return Schema.Union(shapes.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })), shapes)
    .annotations({ [ErrorFormatId]: oauthErrorFormat })
}
