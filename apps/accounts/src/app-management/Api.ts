import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, MaxBodyBytes, Page, PageQueryFields, strict } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { AppOrAuthor } from "./AppOrAuthor.ts"
import { AppRecord, AppStatus, IdTokenSigningAlg, OwnedApp } from "../apps/AppRecord.ts"
import { AppDisabled, AppSourceConflict, ConfigVersionConflict, UnknownApp } from "../apps/errors.ts"
import { InternalAuth } from "@platform/accounts-identity-api"
import { PublicSigninView, SIGNIN_CONFIG_PATCH_LIMIT_BYTES, SigninConfigPatch } from "../apps/signinConfig/index.ts"

export const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })
const Text = (max: number, description: string) => Schema.String.pipe(Schema.maxLength(max)).annotations({ description })

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

export const RegistryApp = strict(Schema.Struct({
  name: Text(200, "1 to 200 characters"),
  description: Schema.optional(Schema.NullOr(Text(5000, "at most 5000 characters"))),
  homepage_url: Schema.optional(Schema.NullOr(Text(2048, "https URL"))),
  logo_url: Schema.optional(Schema.NullOr(Text(200_000, "https URL or an inline data URL of at most 128 KB"))),
  logo_dark_url: Schema.optional(Schema.NullOr(Text(200_000, "https URL or an inline data URL of at most 128 KB"))),
  owner_uuid: Schema.String.annotations({ description: "The owning account's uuid" }),
  coauthor_uuids: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(100))),
  status: AppStatus,
  app_secret_sha256: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)).annotations({
      description: "SHA-256 (lowercase hex) of the app secret the registry issued; absent keeps the current one"
    })
  ),
  id_token_signed_response_alg: Schema.optional(IdTokenSigningAlg.annotations({
    description: "How the app's id tokens are signed: EdDSA or RS256 (for relying parties without EdDSA); absent keeps the current one, EdDSA for a new app"
  }))
})).annotations({ identifier: "RegistryApp" })

export const RegistrySync = Schema.Struct({ app: AppRecord, created: Schema.Boolean }).annotations({ identifier: "RegistrySync" })

export class InternalAppsApi extends HttpApiGroup.make("internalApps")
  .add(
    HttpApiEndpoint.put("sync", "/v1/internal/apps/:app_id")
      .setPath(AppPath)
      .setPayload(RegistryApp)
      .addSuccess(RegistrySync)
      .addError(errorResponse(AppSourceConflict))
      .annotate(MaxBodyBytes, 5 * 1024 * 1024)
      .annotate(
        OpenApi.Description,
        "Registry only (bearer internal token): creates or updates a registry app — details, owner and co-authors, status, secret digest, id token signing alg. Its sign-in setup is managed here by its authors and is left as it is."
      )
  )
  .middleware(InternalAuth)
  .annotate(OpenApi.Title, "Internal")
{}
