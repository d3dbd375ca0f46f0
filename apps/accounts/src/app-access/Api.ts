import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { UnknownApp } from "../apps/errors.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { MyApp } from "./MyApp.ts"

const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })

export const MyAppPage = Page(MyApp, "MyAppPage")

export const SignedOut = Schema.Struct({
  revoked: Schema.Int.annotations({ description: "How many live sign-ins to the app were revoked" })
}).annotations({ identifier: "SignedOut" })

export class AppAccessApi extends HttpApiGroup.make("appAccess")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/apps")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(MyAppPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(
        OpenApi.Description,
        "The apps the caller has a membership with (any state), newest membership first: the granted scopes and the last sign-in."
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/me/apps/:app_id")
      .setPath(AppPath)
      .addSuccess(Schema.Void)
      .addError(errorResponse(UnknownApp))
      .annotate(
        OpenApi.Description,
        "Removes the app's access: the membership becomes access_removed, every sign-in of the caller to the app (its " +
          "refresh tokens and access tokens) is revoked, and the app hears membership.access_removed, all at once; then " +
          "the app hears nothing more about the account until it signs in again. 204; again on removed access, 204 with " +
          "nothing sent. 404 unknown_app without a membership."
      )
  )
  .add(
    HttpApiEndpoint.post("signOut", "/v1/me/apps/:app_id/sign-out")
      .setPath(AppPath)
      .addSuccess(SignedOut)
      .addError(errorResponse(UnknownApp))
      .annotate(
        OpenApi.Description,
        "Signs the caller out of one app: its live sign-ins to the app are revoked and the app hears membership.signed_out " +
          "(only when one was revoked). The membership stays. 404 unknown_app without a membership."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "App access")
{}
