import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { OAuthErrorResponses } from "@platform/http"
import { Schema } from "effect"
import { TokenResponse } from "./TokenResponse.ts"

const Parameters = Schema.Record({ key: Schema.String, value: Schema.String })
/** OAuth endpoints take a form body or a JSON object of strings (spec 1, General request rules). */
export const oauthBody = (annotations: { readonly identifier: string; readonly description?: string }) =>
  Schema.Union(Parameters.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })), Parameters).annotations(annotations)

const OAuthBody = oauthBody({ identifier: "OAuthParameters" })

export class OAuthApi extends HttpApiGroup.make("oauth")
  .add(
    HttpApiEndpoint.post("token", "/v1/oauth/token")
      .setPayload(OAuthBody)
      .addSuccess(TokenResponse)
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .annotate(
        OpenApi.Description,
        "Token endpoint (RFC 6749). Grants refresh_token and urn:ietf:params:oauth:grant-type:device_code (RFC 8628) with client_id `accounts` (the first-party public client, no secret). Refresh tokens rotate; a used one revokes its sign-in. A retry that carries the same Idempotency-Key as the original refresh gets the same answer again."
      )
  )
  .add(
    HttpApiEndpoint.post("revoke", "/v1/oauth/revoke")
      .setPayload(OAuthBody)
      .addSuccess(Schema.Void, { status: 200 })
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .annotate(
        OpenApi.Description,
        "Token revocation (RFC 7009) for first-party tokens: a refresh or access token ends its whole sign-in. Unknown tokens answer 200 too."
      )
  )
  .annotate(OpenApi.Title, "OAuth")
{}
