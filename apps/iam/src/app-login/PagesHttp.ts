import { requireOrigin } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { IamApi } from "../api.ts"
import { Bundles } from "../applications/Bundles.ts"
import { Unauthenticated } from "../auth/errors.ts"
import { IamConfig } from "../config.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { IamBrowserSession } from "../sessions/IamBrowserSession.ts"
import { iamErrorPage } from "../site/layout.ts"
import type { ApplicationCheck } from "./Api.ts"
import { AppLogin } from "./AppLogin.ts"
import { distinctBatch, splitIds } from "./batch.ts"
import { ApplicationsRequired } from "./errors.ts"
import { invalidApplicationsPage, loginPage } from "./pages/loginPage.ts"
import { chooseReturnTo, withTokens } from "./returnTo.ts"
import { compiledGroup } from "@platform/service"

type InvalidCheck = Extract<ApplicationCheck, { valid: false }>

const noSession = new Unauthenticated({
  message: "Sign in to IAM on this page first: your browser session has ended.",
  hint: "Reload the page to sign in again."
})

export const AppLoginPagesLive = compiledGroup(IamApi, "appLoginPages", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const login = yield* AppLogin
    const browser = yield* IamBrowserSession
    const identities = yield* IdentitiesRepo
    const bundles = yield* Bundles
    const ownOrigin = [new URL(config.publicUrl).origin]

    /** The applications a login names: its app_ids, or the applications of its bundle (never both). */
    const namedApplications = (asked: { readonly app_ids?: string | undefined; readonly bundle_id?: string | undefined }) =>
      asked.bundle_id === undefined
        ? distinctBatch(splitIds(asked.app_ids ?? ""))
        : asked.app_ids !== undefined
        ? Effect.fail(new ApplicationsRequired({ message: "Name the applications by app_ids or by bundle_id, not both." }))
        : Effect.flatMap(bundles.find(asked.bundle_id), (bundle) => distinctBatch(bundle.applications.map((app) => app.app_id)))

    return handlers
      .handle("login", ({ urlParams }) =>
        Effect.gen(function*() {
          const appIds = yield* namedApplications(urlParams)
          const session = yield* browser.fromRequest
          const seen = yield* login.overview(Option.map(session, (live) => live.identity_uuid), appIds)
          const invalid = seen.applications.filter((check): check is InvalidCheck => !check.valid)
          if (invalid.length > 0) return invalidApplicationsPage(invalid)
          const shown = seen.applications.flatMap((check) => {
            const app = seen.found.get(check.app_id)
            return check.valid && app !== undefined ? [{ app, askConsent: check.consent_required && !check.consent_current }] : []
          })
          const applications = shown.map(({ app }) => app)
          const returnTo = yield* chooseReturnTo(applications, urlParams.return_to)
          if (Option.isNone(session)) return loginPage({ _tag: "SignIn", applications })
          const { identity_uuid, handle } = session.value
          const person = yield* identities.find(identity_uuid)
          return loginPage({
            _tag: "Approve",
            person: { display_name: Option.match(person, { onNone: () => handle, onSome: (found) => found.display_name }), id: handle },
            applications: shown,
            organizations: seen.organizations,
            returnTo
          })
        }).pipe(Effect.catchAll((refused) => Effect.succeed(iamErrorPage(refused)))))
      .handle("approve", ({ payload }) =>
        Effect.gen(function*() {
          yield* requireOrigin(ownOrigin)
          const session = yield* browser.fromRequest
          if (Option.isNone(session)) return yield* Effect.fail(noSession)
          const { tokens, returnTo } = yield* login.approveForPage(
            { identityUuid: session.value.identity_uuid, sessionId: session.value.session_id },
            payload.applications,
            payload.return_to
          )
          return { redirect_to: withTokens(returnTo, tokens) }
        }))
  })).pipe(Layer.provide([AppLogin.Default, IamBrowserSession.Default, IdentitiesRepo.Default, Bundles.Default]))
