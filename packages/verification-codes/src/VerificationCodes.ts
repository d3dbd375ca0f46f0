import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { randomDigits, randomToken } from "@platform/crypto"
import type { RateLimited } from "@platform/http"
import { MessageOutbox } from "@platform/mail"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { type CodeSent, makeChallengeStore, type StoredChallenge } from "./challengeStore.ts"
import { codeDigest } from "./codeDigest.ts"
import { addressKey, maskDestination } from "./destination.ts"
import type { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, VerificationLocked } from "./errors.ts"
import { checkPolicy, type VerificationCodesPolicy } from "./policy.ts"
import { challengeNotFound, codeAlreadyUsed } from "./refusals.ts"
import { makeStreakStore } from "./streakStore.ts"
import { makeVerifyCode } from "./verifyCode.ts"
import type {
  CodeMessage,
  ResendCodeInput,
  SendCodeInput,
  VerificationChallenge,
  VerificationChannel,
  VerifiedAddress,
  VerifyCodeInput
} from "./VerificationChallenge.ts"

export interface VerificationSweep {
  readonly challenges: number
  readonly streaks: number
}

export interface VerificationCodesService {
  /**
   * Counts the code against the per-IP and per-address limits, then creates a challenge and
   * enqueues the message carrying its code in one transaction (joining the caller's, if any).
   */
  readonly send: (input: SendCodeInput) => Effect.Effect<VerificationChallenge, RateLimited>
  /** Sends a new code for the challenge; the old code stops working, the address's wrong-code streak stays. */
  readonly resend: (
    input: ResendCodeInput
  ) => Effect.Effect<VerificationChallenge, ChallengeNotFound | CodeAlreadyUsed | RateLimited>
  /** The challenge as the person sees it, e.g. for a page that shows where the code went. */
  readonly describe: (challengeId: string, purpose: string) => Effect.Effect<VerificationChallenge, ChallengeNotFound>
  /** Checks a code; a right one is used up at once, so of two concurrent checks exactly one succeeds. */
  readonly verify: (
    input: VerifyCodeInput
  ) => Effect.Effect<
    VerifiedAddress,
    InvalidCode | CodeExpired | CodeAlreadyUsed | ChallengeNotFound | VerificationLocked
  >
  /** Retention: deletes challenges a day (the policy's retention) after expiry and wrong-code streaks idle as long. */
  readonly sweep: Effect.Effect<VerificationSweep>
}

const challengeView = (
  challenge: Pick<StoredChallenge, "id" | "channel" | "destination" | "expiresAtMillis" | "resendAvailableAtMillis">
): VerificationChallenge => ({
  challenge_id: challenge.id,
  channel: challenge.channel,
  destination: maskDestination(challenge.channel, challenge.destination),
  expires_at: new Date(challenge.expiresAtMillis).toISOString(),
  resend_available_at: new Date(challenge.resendAvailableAtMillis).toISOString()
})

/** A fresh code and the times that go with it; the clear code leaves only in the message. */
const newCode = (policy: VerificationCodesPolicy, challengeId: string) =>
  Effect.map(Clock.currentTimeMillis, (nowMillis) => {
    const code = randomDigits(policy.codeDigits)
    const sent: CodeSent = {
      codeDigest: codeDigest(challengeId, code),
      sentAt: new Date(nowMillis),
      expiresAt: new Date(nowMillis + Duration.toMillis(policy.codeLifetime)),
      resendAvailableAt: new Date(nowMillis + Duration.toMillis(policy.resendSuggestedAfter))
    }
    return { code, sent }
  })

export const makeVerificationCodes = (
  policy: VerificationCodesPolicy
): Effect.Effect<VerificationCodesService, never, SqlClient.SqlClient | RateLimiter | MessageOutbox> =>
  Effect.gen(function*() {
    const invalidPolicy = checkPolicy(policy)
    if (invalidPolicy !== undefined) return yield* Effect.dieMessage(invalidPolicy)
    const sql = yield* SqlClient.SqlClient
    const limiter = yield* RateLimiter
    const outbox = yield* MessageOutbox
    const challenges = makeChallengeStore(sql)
    const streaks = makeStreakStore(sql)

    /** A resend counts as a code: both limits apply to every code sent. */
    const countCode = (channel: VerificationChannel, destination: string, clientAddress: string) =>
      Effect.zipRight(
        enforceRateLimit(limiter, policy.codesPerClientAddress, clientAddress),
        enforceRateLimit(limiter, policy.codesPerAddress, addressKey(channel, destination))
      )

    const enqueue = (channel: VerificationChannel, destination: string, code: string, message: CodeMessage) => {
      const { subject, text } = message(code)
      return outbox.enqueue({ to: destination, channel, subject, text, code }).pipe(
        Effect.provideService(SqlClient.SqlClient, sql)
      )
    }

    const send = (input: SendCodeInput): Effect.Effect<VerificationChallenge, RateLimited> =>
      Effect.gen(function*() {
        yield* countCode(input.channel, input.destination, input.clientAddress)
        const id = randomToken(policy.challengeIdPrefix, 16)
        const { code, sent } = yield* newCode(policy, id)
        yield* sql.withTransaction(
          Effect.zipRight(
            challenges.insert({ id, purpose: input.purpose, channel: input.channel, destination: input.destination, ...sent }),
            enqueue(input.channel, input.destination, code, input.message)
          )
        ).pipe(Effect.orDie)
        return challengeView({
          id,
          channel: input.channel,
          destination: input.destination,
          expiresAtMillis: sent.expiresAt.getTime(),
          resendAvailableAtMillis: sent.resendAvailableAt.getTime()
        })
      }).pipe(Effect.withSpan("VerificationCodes.send"))

    /** The challenge of that purpose that may still get a code, or why not. */
    const resendable = (
      challenge: StoredChallenge | undefined,
      purpose: string
    ): Effect.Effect<StoredChallenge, ChallengeNotFound | CodeAlreadyUsed> =>
      challenge === undefined || challenge.purpose !== purpose
        ? Effect.fail(challengeNotFound())
        : challenge.used
        ? Effect.fail(codeAlreadyUsed())
        : Effect.succeed(challenge)

    const resend = (
      input: ResendCodeInput
    ): Effect.Effect<VerificationChallenge, ChallengeNotFound | CodeAlreadyUsed | RateLimited> =>
      Effect.gen(function*() {
        const found = yield* Effect.flatMap(Effect.orDie(challenges.find(input.challengeId)), (c) =>
          resendable(c, input.purpose))
        yield* countCode(found.channel, found.destination, input.clientAddress)
        const { code, sent } = yield* newCode(policy, found.id)
        const replaced: Effect.Effect<StoredChallenge, ChallengeNotFound | CodeAlreadyUsed | SqlError> = Effect.gen(
          function*() {
            // Checked again under the row lock: a verify may have used it meanwhile.
            const current = yield* Effect.flatMap(challenges.lock(found.id), (c) => resendable(c, input.purpose))
            yield* challenges.replaceCode(current.id, sent)
            yield* enqueue(current.channel, current.destination, code, input.message)
            return current
          }
        )
        const current = yield* sql.withTransaction(replaced).pipe(Effect.catchTag("SqlError", Effect.die))
        return challengeView({
          ...current,
          expiresAtMillis: sent.expiresAt.getTime(),
          resendAvailableAtMillis: sent.resendAvailableAt.getTime()
        })
      }).pipe(Effect.withSpan("VerificationCodes.resend"))

    const describe = (challengeId: string, purpose: string): Effect.Effect<VerificationChallenge, ChallengeNotFound> =>
      Effect.flatMap(Effect.orDie(challenges.find(challengeId)), (challenge) =>
        challenge === undefined || challenge.purpose !== purpose
          ? Effect.fail(challengeNotFound())
          : Effect.succeed(challengeView(challenge)))

    const sweep: Effect.Effect<VerificationSweep> = Effect.gen(function*() {
      const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(policy.retentionAfterExpiry))
      return {
        challenges: yield* challenges.deleteExpiredBefore(cutoff),
        streaks: yield* streaks.deleteIdleBefore(cutoff)
      }
    }).pipe(Effect.orDie, Effect.withSpan("VerificationCodes.sweep"))

    return {
      send,
      resend,
      describe,
      verify: makeVerifyCode(policy, sql, challenges),
      sweep
    }
  })

/**
 * One-time codes sent by email or SMS: the rules (single use, lockout, resend, retention) are
 * here; the numbers, purposes and message words are the service's.
 */
export class VerificationCodes extends Context.Tag("@platform/verification-codes/VerificationCodes")<
  VerificationCodes,
  VerificationCodesService
>() {
  static readonly layer = (
    policy: VerificationCodesPolicy
  ): Layer.Layer<VerificationCodes, never, SqlClient.SqlClient | RateLimiter | MessageOutbox> =>
    Layer.effect(VerificationCodes, makeVerificationCodes(policy))
}
