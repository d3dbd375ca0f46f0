import { SqlClient } from "@effect/sql"
import { randomDigits, randomToken } from "@platform/crypto"
import type { RateLimited } from "@platform/http"
import { MessageOutbox } from "@platform/mail"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { now } from "@platform/service"
import {
  challengeNotFound,
  ChallengeNotFound,
  codeAlreadyUsed,
  type CodeAlreadyUsed,
  CodeAttempt,
  codeDigest,
  type CodeExpired,
  codeMatches,
  type CodeMessage,
  type InvalidCode,
  makeCodeAttempts,
  makeRefusals,
  maskDestination,
  type VerificationLocked
} from "@platform/verification-codes"
import { Clock, Data, Duration, Effect, Layer } from "effect"
import { PhoneVerificationUnavailable } from "../phone-verification/errors.ts"
import { PhoneVerifier } from "../phone-verification/PhoneVerifier.ts"
import { PhoneVerifierLive } from "../phone-verification/PhoneVerifierLive.ts"
import type { CodeChallengeView } from "./CodeChallenge.ts"
import { type ChallengePurpose, CodeChallengesRepo, type StoredChallenge } from "./CodeChallengesRepo.ts"
import { codeChecksPerClientAddress, iamVerificationPolicy as policy } from "./policy.ts"

export type { StoredChallenge } from "./CodeChallengesRepo.ts"

export interface OpenChallenge {
  readonly purpose: ChallengePurpose
  /**
   * What the challenge stands for: a new one for the same subject replaces the open one, and wrong
   * codes count per subject, so the count and a cooldown carry into the replacement.
   */
  readonly subject: string
  readonly identityUuid?: string | undefined
  /** Normalized (lower case); at least one of email and phone. */
  readonly email?: string | undefined
  /** E.164. */
  readonly phone?: string | undefined
  /** What the purpose's owner reads back after a right code (JSON). */
  readonly details?: unknown
  readonly clientAddress: string
  /** The email's words around its code (the provider writes its own SMS). */
  readonly message: CodeMessage
}

export interface AnswerChallenge {
  readonly sessionId: string
  readonly purpose: ChallengePurpose
  readonly code: string
  readonly clientAddress: string
  /** When set, a challenge of another identity is not found. */
  readonly identityUuid?: string | undefined
}

export type ChallengeRefusal =
  | ChallengeNotFound
  | CodeAlreadyUsed
  | CodeExpired
  | InvalidCode
  | VerificationLocked
  | PhoneVerificationUnavailable
  | RateLimited

/** What one answer decided; written in one transaction, refused only after it committed. */
type Checked<A> = Data.TaggedEnum<{
  NotFound: { readonly replaced: boolean }
  AlreadyUsed: {}
  Expired: {}
  Refused: { readonly attempt: Exclude<CodeAttempt, { readonly _tag: "Right" }> }
  Right: { readonly value: A }
}>
interface CheckedDefinition extends Data.TaggedEnum.WithGenerics<1> {
  readonly taggedEnum: Checked<this["A"]>
}
const Checked = Data.taggedEnum<CheckedDefinition>()

class CodeHasExpired extends Data.TaggedError("CodeHasExpired") {}

const SIX_DIGITS = /^[0-9]{6}$/

const replacedChallenge = () =>
  new ChallengeNotFound({
    message: "A newer code was asked for: this challenge was replaced and its code no longer works.",
    hint: "Enter the newest code you received."
  })

const plus = (at: Date, duration: Duration.Duration) => new Date(at.getTime() + Duration.toMillis(duration))

/** Login, signup and step-up codes: sent to an email (IAM's own code) and/or a phone (the provider's). */
export class CodeChallenges extends Effect.Service<CodeChallenges>()("iam/CodeChallenges", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CodeChallengesRepo
    const phones = yield* PhoneVerifier
    const limiter = yield* RateLimiter
    const outbox = yield* MessageOutbox
    const attempts = makeCodeAttempts(policy, sql)
    const refusals = makeRefusals(policy)

    /** Every code sent counts against its address and the caller's network, as in spec 1. */
    const countCode = (address: string, clientAddress: string) =>
      Effect.zipRight(
        enforceRateLimit(limiter, policy.codesPerClientAddress, clientAddress),
        enforceRateLimit(limiter, policy.codesPerAddress, address)
      )

    const open = (input: OpenChallenge): Effect.Effect<CodeChallengeView, RateLimited | PhoneVerificationUnavailable> =>
      Effect.gen(function*() {
        if (input.email !== undefined) yield* countCode(`email:${input.email}`, input.clientAddress)
        if (input.phone !== undefined) yield* countCode(`sms:${input.phone}`, input.clientAddress)
        // The provider first: when it cannot send, no challenge is left waiting for a code that never came.
        if (input.phone !== undefined) yield* phones.start(input.phone)
        const id = randomToken(policy.challengeIdPrefix, 16)
        const at = yield* now
        const expiresAt = plus(at, policy.codeLifetime)
        const emailCode = input.email === undefined ? undefined : randomDigits(policy.codeDigits)
        yield* Effect.gen(function*() {
          yield* repo.replace({
            id,
            purpose: input.purpose,
            subject: input.subject,
            identityUuid: input.identityUuid ?? null,
            email: input.email ?? null,
            emailCodeDigest: emailCode === undefined ? null : codeDigest(id, emailCode),
            phone: input.phone ?? null,
            details: input.details ?? {},
            at,
            expiresAt
          })
          if (input.email !== undefined && emailCode !== undefined) {
            const { subject, text } = input.message(emailCode)
            yield* outbox.enqueue({ to: input.email, channel: "email", subject, text, code: emailCode })
          }
        }).pipe(sql.withTransaction, Effect.orDie, Effect.provideService(SqlClient.SqlClient, sql))
        return {
          session_id: id,
          channels: [
            ...(input.email === undefined ? [] : [{ channel: "email" as const, destination: maskDestination("email", input.email) }]),
            ...(input.phone === undefined ? [] : [{ channel: "phone" as const, destination: maskDestination("sms", input.phone) }])
          ],
          expires_at: expiresAt.toISOString()
        }
      }).pipe(Effect.withSpan("CodeChallenges.open"))

    /** Either code satisfies the challenge: the email one, checked here, or the phone one, asked of the provider. */
    const isRight = (challenge: StoredChallenge, code: string, nowMillis: number) =>
      Effect.gen(function*() {
        if (challenge.expires_at.getTime() <= nowMillis) return yield* new CodeHasExpired()
        if (challenge.email_code_digest !== null && codeMatches(challenge.email_code_digest, challenge.id, code)) return true
        if (challenge.phone === null || !SIX_DIGITS.test(code)) return false
        return yield* phones.check(challenge.phone, code)
      })

    const refuse = <A>(checked: Checked<A>, nowMillis: number) =>
      Checked.$match(checked, {
        NotFound: ({ replaced }) => Effect.fail(replaced ? replacedChallenge() : challengeNotFound()),
        AlreadyUsed: () => Effect.fail(codeAlreadyUsed()),
        Expired: () => Effect.fail(refusals.codeExpired()),
        Refused: ({ attempt }) => Effect.fail(attempts.refusal(attempt, nowMillis)),
        Right: ({ value }) => Effect.succeed(value)
      })

    /**
     * Checks a code for a challenge of `purpose`. A right one ends the challenge and runs `onRight`
     * in the same transaction (what the code grants commits with its use, or neither does); a wrong
     * one is counted for the challenge's subject. Refusals in order: unknown (or replaced), used,
     * locked, expired, the code itself.
     */
    const answer = <A, E, R>(
      input: AnswerChallenge,
      onRight: (challenge: StoredChallenge) => Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | ChallengeRefusal, R> =>
      Effect.gen(function*() {
        yield* enforceRateLimit(limiter, codeChecksPerClientAddress, input.clientAddress)
        const nowMillis = yield* Clock.currentTimeMillis
        const checked = yield* Effect.gen(function*() {
          const challenge = yield* repo.lock(input.sessionId)
          if (
            challenge === undefined || challenge.purpose !== input.purpose ||
            (input.identityUuid !== undefined && challenge.identity_uuid !== input.identityUuid)
          ) return Checked.NotFound({ replaced: false })
          if (challenge.end_reason === "replaced") return Checked.NotFound({ replaced: true })
          if (challenge.end_reason === "verified") return Checked.AlreadyUsed()
          const attempt = yield* attempts.attempt(challenge.subject, nowMillis, isRight(challenge, input.code, nowMillis))
          if (attempt._tag !== "Right") return Checked.Refused({ attempt })
          yield* repo.markVerified(challenge.id, new Date(nowMillis))
          return Checked.Right({ value: yield* onRight(challenge) })
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("CodeHasExpired", () => Effect.succeed(Checked.Expired())),
          Effect.catchTag("SqlError", Effect.die)
        )
        return yield* refuse(checked, nowMillis)
      }).pipe(Effect.withSpan("CodeChallenges.answer"))

    return { open, answer } as const
  }),
  dependencies: [CodeChallengesRepo.Default, PhoneVerifierLive]
}) {}

/** For tests that choose the phone provider: CodeChallenges over the given PhoneVerifier. */
export const codeChallengesWith = <E, R>(phoneVerifier: Layer.Layer<PhoneVerifier, E, R>) =>
  CodeChallenges.DefaultWithoutDependencies.pipe(Layer.provide(CodeChallengesRepo.Default), Layer.provide(phoneVerifier))
