import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const Parameters = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * What an OAuth endpoint declares as its payload: a form body or a JSON object of strings.
 * The handler reads the raw body with `oauthParameters` (which refuses repeated parameters);
 * this schema documents it in `/openapi.json` under the given identifier.
 */
export const oauthBody = (annotations: { readonly identifier: string; readonly description?: string }) =>
  Schema.Union(Parameters.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })), Parameters).annotations(annotations)
