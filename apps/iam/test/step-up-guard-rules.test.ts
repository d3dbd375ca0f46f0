import { HttpServerRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, TestClock } from "effect"
import { CurrentIdentity } from "../src/auth/CurrentIdentity.ts"
import { type StepUpDemand, StepUpGuard } from "../src/auth/StepUpGuard.ts"
import { iamMigrations } from "../src/migrations.ts"
import { StepUpGuardLive } from "../src/step-up/StepUpGuardLive.ts"
import { StepUpTokens } from "../src/step-up/StepUpTokens.ts"

const ADA = { uuid: "5d0c2a8e-0000-4000-8000-00000000000a", id: "c:ada", kind: "carbon" as const, sessionId: "ses_ada" }
const BO = { uuid: "5d0c2a8e-0000-4000-8000-00000000000b", id: "c:bo", kind: "carbon" as const, sessionId: "ses_bo" }

const GuardTest = Layer.mergeAll(StepUpGuardLive, StepUpTokens.Default).pipe(
  Layer.provideMerge(TestDatabase.layer(iamMigrations))
)

/** A step-up token minted for Ada (after a right code), for `account.session_revoke` on `ses_1` unless told otherwise. */
const minted = (binding: Partial<{ action: string; resourceId: string; applicationId: string | null }> = {}) =>
  Effect.flatMap(StepUpTokens, (tokens) =>
    tokens.mint({
      identityUuid: ADA.uuid,
      action: binding.action ?? "account.session_revoke",
      resourceId: binding.resourceId ?? "ses_1",
      applicationId: binding.applicationId ?? null
    }, "chs_test")).pipe(Effect.map(({ token }) => token))

/** The guard as a handler calls it, in a request carrying `token` from `identity`. */
const spend = (token: string | undefined, demand: Partial<StepUpDemand> = {}, identity = ADA) =>
  Effect.flatMap(StepUpGuard, (guard) =>
    guard.spend({ action: "account.session_revoke", resourceId: "ses_1", ...demand })).pipe(
      Effect.provideService(
        HttpServerRequest.HttpServerRequest,
        HttpServerRequest.fromWeb(
          new Request("http://iam.test/api/v1/sessions/ses_1", {
            method: "DELETE",
            headers: token === undefined ? {} : { "x-step-up-token": token }
          })
        )
      ),
      Effect.provideService(CurrentIdentity, identity)
    )

layer(GuardTest)("step-up guard", (it) => {
  it.effect("a token serves its own identity, action and resource once: a second spend is step_up_used", () =>
    Effect.gen(function*() {
      const token = yield* minted()
      expect(token).toMatch(/^sup_[A-Za-z0-9_-]{43}$/)
      yield* spend(token)
      expect(yield* Effect.flip(spend(token))).toMatchObject({ code: "step_up_used", status: 403 })
    }))

  it.effect("a token minted for one action, resource, identity or application is refused for another (step_up_mismatch) and stays unspent", () =>
    Effect.gen(function*() {
      const token = yield* minted()
      for (
        const [demand, identity] of [
          [{ action: "account.sessions_revoke_all" }, ADA],
          [{ resourceId: "ses_2" }, ADA],
          [{ applicationId: "app_1" }, ADA],
          [{}, BO]
        ] as const
      ) {
        expect(yield* Effect.flip(spend(token, demand, identity))).toMatchObject({ code: "step_up_mismatch", status: 403 })
      }
      const forApp = yield* minted({ action: "application.client_secret.rotate", resourceId: "app_1", applicationId: "app_1" })
      const elsewhere = { action: "application.client_secret.rotate" as const, resourceId: "app_1", applicationId: "app_2" }
      expect(yield* Effect.flip(spend(forApp, elsewhere))).toMatchObject({ code: "step_up_mismatch" })
      yield* spend(forApp, { ...elsewhere, applicationId: "app_1" })
      yield* spend(token)
    }))

  it.effect("an action that needs step-up is refused without a token (step_up_required) or with something else (step_up_mismatch)", () =>
    Effect.gen(function*() {
      expect(yield* Effect.flip(spend(undefined))).toMatchObject({ code: "step_up_required", status: 403 })
      expect(yield* Effect.flip(spend("sup_madeup"))).toMatchObject({ code: "step_up_mismatch" })
    }))

  it.effect("a token lasts 5 minutes: step_up_expired from then on", () =>
    Effect.gen(function*() {
      const lasting = yield* minted({ resourceId: "ses_lasting" })
      const expiring = yield* minted({ resourceId: "ses_expiring" })
      yield* TestClock.adjust(Duration.millis(Duration.toMillis(Duration.minutes(5)) - 1))
      yield* spend(lasting, { resourceId: "ses_lasting" })
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Effect.flip(spend(expiring, { resourceId: "ses_expiring" }))).toMatchObject({ code: "step_up_expired" })
    }))
})
