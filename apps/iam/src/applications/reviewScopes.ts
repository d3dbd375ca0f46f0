import { Effect } from "effect"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { requirePlatformAdmin } from "../platform-admins/requirePlatformAdmin.ts"
import { Applications, type ScopeReview } from "./Applications.ts"

/** A platform admin decides pending critical scopes, spending a step-up token for this review of this application. */
export const reviewScopes = (appId: string, decision: ScopeReview) =>
  Effect.gen(function*() {
    const admin = yield* requirePlatformAdmin
    yield* (yield* StepUpGuard).spend({ action: "platform_admin.application_review", resourceId: appId })
    return yield* (yield* Applications).review(appId, decision, admin.uuid)
  })
