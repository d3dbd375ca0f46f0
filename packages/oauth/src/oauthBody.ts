import { HttpApiSchema, HttpServerRespondable } from "@effect/platform"
import { type ApiErrorInstance, BodyRefusalId } from "@platform/http"
import { Schema } from "effect"
import { oauthError } from "./OAuthError.ts"

const Parameters = Schema.Record({ key: Schema.String, value: Schema.String })

const describeRefusal = (error: ApiErrorInstance): string => {
  const fields = (error.details as { fields?: Record<string, string> } | undefined)?.fields
  const [field] = Object.entries(fields ?? {})
  return field === undefined ? error.message : `Parameter ${field[0]} ${field[1]}.`
}

/** A body the conventions refuse (malformed or too deep JSON, NUL in a value) is an RFC 6749 invalid_request. */
const refuseAsOAuth = (error: ApiErrorInstance) =>
  HttpServerRespondable.toResponse(oauthError("invalid_request", describeRefusal(error)))

/**
 * What an OAuth endpoint declares as its payload: a form body or a JSON object of strings.
 * The handler reads the raw body with `oauthParameters` (which refuses repeated parameters);
 * this schema documents it in `/openapi.json` under the given identifier.
 */
export const oauthBody = (annotations: { readonly identifier: string; readonly description?: string }) =>
  Schema.Union(Parameters.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })), Parameters).annotations({
    ...annotations,
    [BodyRefusalId]: refuseAsOAuth
  })
