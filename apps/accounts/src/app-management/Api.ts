import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, MaxBodyBytes, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { AppOrAuthor } from "./AppOrAuthor.ts"
import { AppRecord, OwnedApp } from "../apps/AppRecord.ts"
import { AppDisabled, ConfigVersionConflict, UnknownApp } from "../apps/errors.ts"
import { internalAppsGroup } from "@platform/accounts-identity-api"
import { PublicSigninView, SIGNIN_CONFIG_PATCH_LIMIT_BYTES, SigninConfigPatch } from "../apps/signinConfig/index.ts"

export const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })

export const PublicApp = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  logo_url: Schema.NullOr(Schema.String),
  logo_dark_url: Schema.NullOr(Schema.String),
  homepage_url: Schema.NullOr(Schema.String),
  ...PublicSigninView.fields
}).annotations({ identifier: "PublicApp" })

export const OwnedAppPage = Page(OwnedApp, "OwnedAppPage")

export class AppsApi extends HttpApiGroup.make("apps")
  .add(
    HttpApiEndpoint.get("get", "/v1/apps/:app_id")
      .setPath(AppPath)
      .addSuccess(AppRecord)
      .annotate(OpenApi.Description, "The App record, for the app (Basic credentials) or one of its authors. Secrets are never returned.")
  )
  .add(
    HttpApiEndpoint.patch("updateSigninConfig", "/v1/apps/:app_id/signin-config")
      .setPath(AppPath)
      .setPayload(SigninConfigPatch)
      .addSuccess(AppRecord)
      .addError(errorResponse(ConfigVersionConflict))
      .annotate(MaxBodyBytes, SIGNIN_CONFIG_PATCH_LIMIT_BYTES)
      .annotate(
        OpenApi.Description,
        "Send only changes: objects merge, arrays and plain values replace, null resets a field (or a whole object) to its default. " +
          "expected_version must equal config_version when sent (409 config_version_conflict). Every rule of the setup is checked on the result, each problem by field (422). " +
          "idp_a.client_secret and idp_b.private_key are write-only (null removes them); the *_set masks are accepted and ignored. " +
          "A patch that changes nothing makes no new version; every version is kept. Body up to 512 KB."
      )
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "Apps")
{}

export class AppsPublicApi extends HttpApiGroup.make("appsPublic")
  .add(
    HttpApiEndpoint.get("public", "/v1/apps/:app_id/public")
      .setPath(AppPath)
      .addSuccess(PublicApp)
      .addError(errorResponse(UnknownApp))
      .addError(errorResponse(AppDisabled))
      .annotate(
        OpenApi.Description,
        "What a sign-in page needs to show the app: name, logos, enabled methods in order, branding, copy, allowed origins. Public, CORS *, no-cache."
      )
  )
  .annotate(OpenApi.Title, "Apps")
{}

export class OwnedAppsApi extends HttpApiGroup.make("ownedApps")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/owned-apps")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(OwnedAppPage)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The apps the caller owns or co-authors, newest first.")
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Apps")
{}

/** The registry sync (PUT /v1/internal/apps/{app_id}), as @platform/accounts-identity-api defines it, answering accounts' App record. */
export class InternalAppsApi extends internalAppsGroup(AppRecord) {}
