import { compiledGroup, now } from "@platform/service"
import { Effect, Either, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { applyPatch, toValidationFailed, validateSigninConfig } from "../apps/signinConfig/index.ts"
import { previewPage } from "../flows/pages/previewPage.ts"
import { AppOrAuthorLive, CurrentAppManager } from "../app-management/AppOrAuthor.ts"

/** GET and POST /v1/apps/{app_id}/signin-config/preview: the sign-in page of the saved setup, or of a patch not saved. */
export const SigninConfigPreviewLive = compiledGroup(AccountsApi, "signinConfigPreview", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* AppsRepo
    // The middleware found the app a moment ago; gone since is a defect.
    const managedApp = Effect.flatMap(CurrentAppManager, (manager) =>
      Effect.flatMap(apps.find(manager.appId), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.dieMessage(`app ${manager.appId} vanished`)))
    return handlers
      .handle("saved", () =>
        Effect.gen(function*() {
          const app = yield* managedApp
          return previewPage(app, app.signin_config, (yield* now).getTime())
        }))
      .handle("proposed", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* managedApp
          // Secrets are neither opened nor kept: a preview shows nothing of them.
          const proposed = applyPatch(app.signin_config, payload, {}).config
          yield* Either.mapLeft(validateSigninConfig(proposed), toValidationFailed)
          return previewPage(app, proposed, (yield* now).getTime())
        }))
  })).pipe(Layer.provide([AppsRepo.Default, AppOrAuthorLive]))
