import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { HtmlText, MaxBodyBytes } from "@platform/http"
import { SIGNIN_CONFIG_PATCH_LIMIT_BYTES, SigninConfigPatch } from "../apps/signinConfig/index.ts"
import { AppPath } from "../app-management/Api.ts"
import { AppOrAuthor } from "../app-management/AppOrAuthor.ts"

const SHOWS = "The answer is the hosted sign-in page (its first step, in the app's branding and copy, with the Content-Security-Policy of every page) marked as a preview, with its forms inert: show it in a new tab or a sandboxed frame."

/** What an app's authors see before saving a sign-in setup. */
export class SigninConfigPreviewApi extends HttpApiGroup.make("signinConfigPreview")
  .add(
    HttpApiEndpoint.get("saved", "/v1/apps/:app_id/signin-config/preview")
      .setPath(AppPath)
      .addSuccess(HtmlText)
      .annotate(OpenApi.Description, `The sign-in page as the saved setup makes it. ${SHOWS}`)
  )
  .add(
    HttpApiEndpoint.post("proposed", "/v1/apps/:app_id/signin-config/preview")
      .setPath(AppPath)
      .setPayload(SigninConfigPatch)
      .addSuccess(HtmlText)
      .annotate(MaxBodyBytes, SIGNIN_CONFIG_PATCH_LIMIT_BYTES)
      .annotate(
        OpenApi.Description,
        `The sign-in page as a patch (the body of PATCH …/signin-config) would make it, checked by the same rules (422 by field) and not saved. ${SHOWS}`
      )
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "Apps")
{}
