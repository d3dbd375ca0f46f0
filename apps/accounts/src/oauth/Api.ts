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
        "Token endpoint (RFC 6749). Grants refresh_token, urn:ietf:params:oauth:grant-type:device_code (RFC 8628) and urn:ietf:params:oauth:grant-type:jwt-bearer (RFC 7523: a Silicon's key sign-in assertion in `assertion`, optional `client_label`) with client_id `accounts` (the first-party public client, no secret). The assertion is a JWT signed with EdDSA by one of the Silicon's live keys (header kid optional), iss and sub both the Silicon's si: id or uuid, aud this endpoint's URL, exp at most 300 seconds after iat (or from now without iat), iat not in the future, and a jti of 1 to 200 characters used once; any failure is invalid_grant. Refresh tokens rotate; a used one revokes its sign-in. A retry that carries the same Idempotency-Key as the original refresh gets the same answer again."
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
