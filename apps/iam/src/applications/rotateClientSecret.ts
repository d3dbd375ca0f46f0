import { Effect } from "effect"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { Applications } from "./Applications.ts"
import { requireOwner } from "./ownership.ts"

/**
 * The owner rotates the application's client secret, spending a step-up token minted for this action on this
 * application. Run it in one transaction: the token is spent only if the secret changes.
 */
export const rotateClientSecret = (appId: string) =>
  Effect.gen(function*() {
    const applications = yield* Applications
    const application = yield* applications.existing(appId)
    yield* requireOwner(application, yield* CurrentIdentity)
    yield* (yield* StepUpGuard).spend({ action: "application.client_secret.rotate", resourceId: appId, applicationId: appId })
    return yield* applications.rotateSecret(application)
  })
