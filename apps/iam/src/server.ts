import { idempotentRequests, IdempotencyStore, sealedAnswers } from "@platform/idempotency"
import { serveHttpApi } from "@platform/service"
import { Effect, Layer } from "effect"
import { IamApi } from "./api.ts"
import { AppLoginLive } from "./app-login/Http.ts"
import { AppLoginPagesLive } from "./app-login/PagesHttp.ts"
import { ApplicationSessionsLive, OnBehalfOfLive } from "./application-sessions/Http.ts"
import { ApplicationReviewsLive } from "./applications/AdminHttp.ts"
import { ApplicationCredentialsLive, ApplicationsLive } from "./applications/Http.ts"
import { IamConfig } from "./config.ts"
import { GovernanceLive } from "./governance/Http.ts"
import { LoginLive, SignupLive } from "./login/Http.ts"
import { OrganizationsLive } from "./organizations/Http.ts"
import { AdminOrganizationsLive } from "./platform-admins/OrganizationsHttp.ts"
import { SecretsAtRest } from "./SecretsAtRest.ts"
import { ServiceLive } from "./service/Http.ts"
import { SessionRefreshLive, SessionsLive } from "./session-management/Http.ts"
import { SiliconAuthLive } from "./silicon-auth/Http.ts"
import { iamErrorPage } from "./site/layout.ts"
import { SiteLive } from "./site/Http.ts"
import { OrganizationSsoLive, SsoLive } from "./sso/Http.ts"
import { StepUpLive } from "./step-up/Http.ts"
import { StepUpGuardLive } from "./step-up/StepUpGuardLive.ts"
import { iamVersioning } from "./versions.ts"
import { WebhooksLive } from "./webhooks/Http.ts"

/**
 * Every area, each providing its own services: left are the settings, the database, the stores of layers.ts
 * and accounts (AccountsDirectory). StepUpGuard is a plug-in point: the areas whose actions need step-up
 * call it, step-up/ provides it.
 */
export const IamHandlers = Layer.mergeAll(
  ServiceLive,
  SessionsLive,
  SessionRefreshLive,
  LoginLive,
  SignupLive,
  StepUpLive,
  OrganizationsLive,
  GovernanceLive,
  SiliconAuthLive,
  ApplicationsLive,
  ApplicationCredentialsLive,
  ApplicationReviewsLive,
  AdminOrganizationsLive,
  OrganizationSsoLive,
  SsoLive,
  ApplicationSessionsLive,
  OnBehalfOfLive,
  AppLoginLive,
  AppLoginPagesLive,
  SiteLive,
  WebhooksLive
).pipe(Layer.provide(StepUpGuardLive))

/** The IAM API served the platform's way (see serveHttpApi), with idempotent requests. */
export const IamServer = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* IamConfig
  return serveHttpApi({
    name: "iam",
    api: IamApi,
    handlers: IamHandlers,
    versioning: iamVersioning,
    settings: config,
    errorPage: (error) => iamErrorPage(error, "Go back and try again."),
    around: idempotentRequests(yield* IdempotencyStore, {
      trustProxy: config.trustProxy,
      // Answers hold credential pairs: sealed at rest like every other secret.
      sealing: sealedAnswers(yield* SecretsAtRest, "idempotent_answer")
    })
  })
})).pipe(Layer.provide(SecretsAtRest.Default))
