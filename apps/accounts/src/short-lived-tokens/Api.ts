import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, strict } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly, SiliconOnly } from "../auth/errors.ts"
import { AppDisabled, UnknownApp } from "../apps/errors.ts"
import { SiliconNotFound } from "../silicons/errors.ts"
import { AppNotAllowed } from "./errors.ts"

const AppIdField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)).annotations({ description: "An app id" })

export const ShortLivedTokenRequest = strict(Schema.Struct({ app_id: AppIdField }))
  .annotations({ identifier: "ShortLivedTokenRequest" })

export const ShortLivedToken = Schema.Struct({
  slt: Schema.String.annotations({ description: "slt_ token, shown only here: 120 seconds, single use, for this app only" }),
  app_id: Schema.String,
  scope: Schema.String.annotations({ description: "What the app's sign-in will be granted" }),
  expires_at: Schema.String
}).annotations({ identifier: "ShortLivedToken" })

export const AllowedApps = Schema.Struct({
  allowed_apps: Schema.NullOr(Schema.Array(Schema.String)).annotations({
    description: "The only apps the Silicon may hand short-lived tokens to; null: any app"
  }),
  updated_at: Schema.NullOr(Schema.String).annotations({ description: "When the list was last set; null when never" })
}).annotations({ identifier: "AllowedApps" })

export const AllowedAppsUpdate = strict(Schema.Struct({
  allowed_apps: Schema.NullOr(Schema.Array(AppIdField).pipe(Schema.maxItems(100))).annotations({
    description: "At most 100 app ids (duplicates dropped); an empty list allows none; null allows any app"
  })
})).annotations({ identifier: "AllowedAppsUpdate" })

const InCustody = Schema.Struct({ uuid: Schema.String.annotations({ description: "The Silicon's uuid" }) })

export class ShortLivedTokensApi extends HttpApiGroup.make("shortLivedTokens")
  .add(
    HttpApiEndpoint.post("mint", "/v1/me/short-lived-tokens")
      .setPayload(ShortLivedTokenRequest)
      .addSuccess(ShortLivedToken, { status: 201 })
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(UnknownApp))
      .addError(errorResponse(AppDisabled))
      .addError(errorResponse(AppNotAllowed))
      .annotate(
        OpenApi.Description,
        "A Silicon mints a short-lived token for one app (120 seconds, single use). The app exchanges it at POST /v1/oauth/token " +
          "with grant_type urn:accounts:params:oauth:grant-type:short-lived-token and parameter slt, authenticated as itself, for its own Token response. " +
          "403 app_not_allowed when the custodian's allow-list does not name the app."
      )
  )
  .add(
    HttpApiEndpoint.get("allowList", "/v1/me/silicons/:uuid/allowed-apps")
      .setPath(InCustody)
      .addSuccess(AllowedApps)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(OpenApi.Description, "The apps a Silicon in the caller's custody may hand short-lived tokens to (null: any app).")
  )
  .add(
    HttpApiEndpoint.put("setAllowList", "/v1/me/silicons/:uuid/allowed-apps")
      .setPath(InCustody)
      .setPayload(AllowedAppsUpdate)
      .addSuccess(AllowedApps)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(
        OpenApi.Description,
        "Sets the allow-list of a Silicon in the caller's custody: a list of app ids restricts its short-lived tokens to those apps, null lifts the restriction. " +
          "Tokens minted earlier stay usable for their 120 seconds."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Short-lived tokens")
{}
