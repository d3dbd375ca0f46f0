import { SqlClient } from "@effect/sql"
import { makeFailureStreaks } from "@platform/rate-limit"
import { now, periodicSweep } from "@platform/service"
import { VerificationCodes, VerificationSweeperLive } from "@platform/verification-codes"
import { Duration, Effect, Layer } from "effect"
import { ApplicationSessionsRepo } from "./application-sessions/ApplicationSessionsRepo.ts"
import { OnBehalfOfProofsRepo } from "./application-sessions/OnBehalfOfProofsRepo.ts"
import { ShortLivedTokensRepo } from "./application-sessions/ShortLivedTokensRepo.ts"
import { iamVerificationPolicy } from "./challenges/policy.ts"
import { CodeChallengesRepo } from "./challenges/CodeChallengesRepo.ts"
import { SignupSessionsRepo } from "./login/SignupSessionsRepo.ts"
import { DevelopmentPhoneCodes } from "./phone-verification/DevelopmentPhoneCodes.ts"
import { SILICON_TOKEN_STREAKS } from "./silicon-auth/tokenStreaks.ts"
import { SsoRepo } from "./sso/SsoRepo.ts"
import { StepUpTokensRepo } from "./step-up/StepUpTokensRepo.ts"
import { sweepWebhookHistory } from "./webhooks/history.ts"

/** Kept a day past their end, then deleted (spec 1's rhythm for codes; decisions.md, "Retention"). */
const KEPT_AFTER_EXPIRY = Duration.days(1)

/**
 * What the sweep deletes: code challenges, signup sessions, step-up tokens, development phone codes, short-lived
 * login tokens, on-behalf-of proofs, application access tokens, SSO sign-in round trips and unused SSO setup links past a
 * day after expiry, and Silicon wrong-token streaks a day after their last attempt and lock; webhook attempts, and
 * finished deliveries, after 45 days.
 */
export const sweepExpired = Effect.gen(function*() {
  const cutoff = new Date((yield* now).getTime() - Duration.toMillis(KEPT_AFTER_EXPIRY))
  yield* Effect.flatMap(CodeChallengesRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(SignupSessionsRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(StepUpTokensRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(DevelopmentPhoneCodes, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(ShortLivedTokensRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(OnBehalfOfProofsRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(ApplicationSessionsRepo, (repo) => repo.deleteAccessTokensExpiredBefore(cutoff))
  yield* Effect.flatMap(SsoRepo, (repo) => repo.deleteExpiredBefore(cutoff))
  yield* Effect.flatMap(SqlClient.SqlClient, (sql) => makeFailureStreaks(sql, SILICON_TOKEN_STREAKS).sweep(cutoff))
  yield* sweepWebhookHistory
})

/** The stores the sweep deletes from. */
export const RetentionStoresLive = Layer.mergeAll(
  CodeChallengesRepo.Default,
  SignupSessionsRepo.Default,
  StepUpTokensRepo.Default,
  DevelopmentPhoneCodes.Default,
  ShortLivedTokensRepo.Default,
  OnBehalfOfProofsRepo.Default,
  ApplicationSessionsRepo.Default,
  SsoRepo.Default
)

/** Every 10 minutes, one process at a time: the sweep above, and idle wrong-code streaks (the codes package's own sweep). */
export const IamRetentionLive = Layer.mergeAll(
  periodicSweep("iam_retention", sweepExpired),
  VerificationSweeperLive.pipe(Layer.provide(VerificationCodes.layer(iamVerificationPolicy)))
).pipe(
  Layer.provide(RetentionStoresLive)
)
