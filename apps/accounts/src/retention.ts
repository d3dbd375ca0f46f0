import { IdempotencyStore } from "@platform/idempotency"
import { RateLimiter } from "@platform/rate-limit"
import { now, periodicSweep } from "@platform/service"
import { VerificationSweeperLive } from "@platform/verification-codes"
import { Duration, Effect, Layer } from "effect"
import { IdsRepo } from "./accounts/IdsRepo.ts"
import { DeviceCodesRepo } from "./device/DeviceCodesRepo.ts"
import { DeviceCodesSweeperLive } from "./device/DeviceCodesSweeper.ts"
import { FlowsRepo } from "./flows/FlowsRepo.ts"
import { SignupSessions } from "./flows/SignupSessions.ts"
import { AuthorizationCodes } from "./oauth/AuthorizationCodes.ts"
import { sweepAssertionJtis } from "./silicons/assertions/assertionJtis.ts"
import { ProofsRepo } from "./proofs/ProofsRepo.ts"
import { ShortLivedTokensRepo } from "./short-lived-tokens/ShortLivedTokensRepo.ts"
import { TelemetryRepo } from "./telemetry/TelemetryRepo.ts"
import { IdentityLinksRepo } from "./identities/IdentityLinksRepo.ts"

const daysAgo = (days: number) => Effect.map(now, (at) => new Date(at.getTime() - Duration.toMillis(Duration.days(days))))

/**
 * Spec 1, Retention, rule by rule (those owned by a package or an area with its own sweeper are in
 * `RetentionSweepsLive` below: verification codes 1 day after expiry, device codes 7 days after).
 * History is never swept (proofs themselves stay; their tokens go).
 */
export const retentionRules = {
  /** Flows 1 day after expiry. */
  flows: Effect.flatMap(FlowsRepo, (flows) => Effect.flatMap(daysAgo(1), flows.sweep)),
  /** Sign-up sessions 7 days after expiry or use. */
  signup_sessions: Effect.flatMap(SignupSessions, (signups) => Effect.flatMap(daysAgo(7), signups.sweep)),
  /** Authorization codes 7 days after expiry: a late reuse still finds the code and revokes what it issued. */
  authorization_codes: Effect.flatMap(AuthorizationCodes, (codes) => Effect.flatMap(daysAgo(7), codes.sweep)),
  /** Short-lived tokens 7 days after expiry. */
  short_lived_tokens: Effect.flatMap(ShortLivedTokensRepo, (tokens) => Effect.flatMap(daysAgo(7), tokens.sweep)),
  /** Proof tokens 1 day after expiry. */
  proof_tokens: Effect.flatMap(ProofsRepo, (proofs) => Effect.flatMap(daysAgo(1), proofs.sweepTokens)),
  /** Every token of a proof (refresh tokens included) 30 days after the proof ended. */
  ended_proof_tokens: Effect.flatMap(ProofsRepo, (proofs) => Effect.flatMap(daysAgo(30), proofs.sweepEndedProofTokens)),
  /** Id reservations 1 day after they end. */
  id_reservations: Effect.flatMap(IdsRepo, (ids) => Effect.flatMap(daysAgo(1), ids.sweep)),
  /** Used assertion jtis once their assertions have expired. */
  silicon_assertion_jtis: sweepAssertionJtis,
  /** Telemetry events 90 days after they arrived (the spec is silent: decisions.md, Audit of spec 1). */
  telemetry_events: Effect.flatMap(TelemetryRepo, (telemetry) => Effect.flatMap(daysAgo(90), telemetry.sweep)),
  /** Identity links 1 day after they expire (like the flows whose round trips they mirror). */
  identity_links: Effect.flatMap(IdentityLinksRepo, (links) => Effect.flatMap(daysAgo(1), links.sweep)),
  /** Rate windows older than a day. */
  rate_limit_windows: Effect.flatMap(RateLimiter, (limiter) => limiter.sweep),
  /** Expired idempotency results. */
  idempotency_results: Effect.flatMap(IdempotencyStore, (store) => store.purgeExpired)
}

/** Every retention sweep, each every 10 minutes and one process at a time (`periodicSweep`). */
export const RetentionSweepsLive = Layer.mergeAll(
  periodicSweep("flows", retentionRules.flows),
  periodicSweep("signup_sessions", retentionRules.signup_sessions),
  periodicSweep("authorization_codes", retentionRules.authorization_codes),
  periodicSweep("short_lived_tokens", retentionRules.short_lived_tokens),
  periodicSweep("proof_tokens", retentionRules.proof_tokens),
  periodicSweep("ended_proof_tokens", retentionRules.ended_proof_tokens),
  periodicSweep("id_reservations", retentionRules.id_reservations),
  periodicSweep("silicon_assertion_jtis", retentionRules.silicon_assertion_jtis),
  periodicSweep("telemetry_events", retentionRules.telemetry_events),
  periodicSweep("identity_links", retentionRules.identity_links),
  periodicSweep("rate_limit_windows", retentionRules.rate_limit_windows),
  periodicSweep("idempotency_results", retentionRules.idempotency_results),
  VerificationSweeperLive,
  DeviceCodesSweeperLive.pipe(Layer.provide(DeviceCodesRepo.Default))
).pipe(Layer.provide(Layer.mergeAll(
  FlowsRepo.Default,
  SignupSessions.Default,
  AuthorizationCodes.Default,
  IdsRepo.Default,
  ShortLivedTokensRepo.Default,
  ProofsRepo.Default,
  TelemetryRepo.Default,
  IdentityLinksRepo.Default
)))
