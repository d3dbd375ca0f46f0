import { HttpApiSchema, HttpServerRespondable } from "@effect/platform"
import { type ApiErrorInstance, type ErrorFormat, ErrorFormatId } from "@platform/http"
import { Schema } from "effect"
import { oauthError, oauthOutageResponse } from "./OAuthError.ts"

const Parameters = Schema.Record({ key: Schema.String, value: Schema.String })

const describeRefusal = (error: ApiErrorInstance): string => {
  const fields = (error.details as { fields?: Record<string, string> } | undefined)?.fields
  const [field] = Object.entries(fields ?? {})
  return field === undefined ? error.message : `Parameter ${field[0]} ${field[1]}.`
}

/**
 * RFC 6749 bodies: a body the conventions refuse (malformed or too deep JSON, NUL in a value)
 * is invalid_request; an outage is temporarily_unavailable.
 */
const oauthErrorFormat: ErrorFormat = {
  refuseBody: (error) => HttpServerRespondable.toResponse(oauthError("invalid_request", describeRefusal(error))),
  unavailable: oauthOutageResponse
}

/**
 * What an OAuth endpoint declares as its payload: a form body or a JSON object of strings.
 * The handler reads the raw body with `oauthParameters` (which refuses repeated parameters);
 * this schema documents it in `/openapi.json` under the given identifier.
 */
export const oauthBody = (annotations: { readonly identifier: string; readonly description?: string }) =>
  Schema.Union(Parameters.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })), Parameters).annotations({
    ...annotations,
    [ErrorFormatId]: oauthErrorFormat
  })
