import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited } from "@platform/http"
import { oauthBody, OAuthErrorResponses, oauthParameter, oauthRequest } from "@platform/oauth"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { DeviceRequest } from "./DeviceRequest.ts"
import { DeviceCodeDecided, DeviceCodeExpired, DeviceCodeNotFound } from "./errors.ts"

/** Like every OAuth endpoint: a form body or a JSON object of strings (spec 1, General request rules). */
const DeviceAuthorizationParameters = oauthBody([
  oauthRequest("DeviceAuthorizationParameters", "RFC 8628 §3.1", {
    client_id: oauthParameter("`accounts`"),
    client_label: Schema.optional(oauthParameter("A name for the sign-in, cut at 100 characters")),
    scope: Schema.optional(oauthParameter("Ignored"))
  })
])

/** RFC 8628 §3.2. */
export const DeviceAuthorization = Schema.Struct({
  device_code: Schema.String.annotations({ description: "Secret the device polls the token endpoint with" }),
  user_code: Schema.String.annotations({ description: "What the person types, e.g. WDJB-MJHT; case and dash ignored" }),
  verification_uri: Schema.String.annotations({ description: "{accounts_url}/device, the page where the person types it" }),
  verification_uri_complete: Schema.String.annotations({ description: "The same page with the user code filled in" }),
  expires_in: Schema.Int.annotations({ description: "Seconds the codes live: 600" }),
  interval: Schema.Int.annotations({ description: "Seconds to wait between polls: 5" })
}).annotations({ identifier: "DeviceAuthorization" })

const UserCodePath = Schema.Struct({
  user_code: Schema.String.pipe(Schema.maxLength(32)).annotations({
    description: "The user code as typed: case, dashes and spaces are ignored"
  })
})

export class DeviceAuthorizationApi extends HttpApiGroup.make("deviceAuthorization")
  .add(
    HttpApiEndpoint.post("authorize", "/v1/device/authorize")
      .setPayload(DeviceAuthorizationParameters)
      .addSuccess(DeviceAuthorization)
      .addError(OAuthErrorResponses[0])
      .addError(OAuthErrorResponses[1])
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Device authorization endpoint (RFC 8628) for the first-party public client `accounts`. The device shows the user code, then polls POST /v1/oauth/token with grant_type urn:ietf:params:oauth:grant-type:device_code. 60 per 10 minutes per IP."
      )
  )
  .annotate(OpenApi.Title, "Device sign-in")
{}

export class DeviceApprovalApi extends HttpApiGroup.make("deviceApproval")
  .add(
    HttpApiEndpoint.get("lookup", "/v1/device/:user_code")
      .setPath(UserCodePath)
      .addSuccess(DeviceRequest)
      .annotate(OpenApi.Description, "What is asking to sign in with this user code.")
  )
  .add(
    HttpApiEndpoint.post("approve", "/v1/device/:user_code/approve")
      .setPath(UserCodePath)
      .addSuccess(DeviceRequest)
      .addError(errorResponse(DeviceCodeDecided))
      .annotate(
        OpenApi.Description,
        "Signs the device in as the calling Carbon: its next poll gets a first-party Token response (method device)."
      )
  )
  .add(
    HttpApiEndpoint.post("deny", "/v1/device/:user_code/deny")
      .setPath(UserCodePath)
      .addSuccess(DeviceRequest)
      .addError(errorResponse(DeviceCodeDecided))
      .annotate(OpenApi.Description, "Refuses the device sign-in: its polls answer access_denied.")
  )
  // Every route answers these: a Silicon caller, the shared window, an unknown code (404) or an expired one (410).
  .addError(errorResponse(CarbonOnly))
  .addError(errorResponse(RateLimited))
  .addError(errorResponse(DeviceCodeNotFound))
  .addError(errorResponse(DeviceCodeExpired))
  .middleware(AccountAuth)
  .annotate(
    OpenApi.Description,
    "A signed-in Carbon (Silicons get 403 carbon_only) looks up, approves or denies a device sign-in. 60 per 10 minutes per Carbon, all three together."
  )
  .annotate(OpenApi.Title, "Device sign-in approval")
{}
