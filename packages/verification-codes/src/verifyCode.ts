import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Data, Effect } from "effect"
import type { ChallengeStore, StoredChallenge } from "./challengeStore.ts"
import { codeMatches } from "./codeDigest.ts"
import { addressDigest } from "./destination.ts"
import type { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, VerificationLocked } from "./errors.ts"
import type { VerificationCodesPolicy } from "./policy.ts"
import { challengeNotFound, codeAlreadyUsed, makeRefusals } from "./refusals.ts"
import type { StreakStore } from "./streakStore.ts"
import type { VerifiedAddress, VerifyCodeInput } from "./VerificationChallenge.ts"
import { activeLockEnd, clearedStreak, countWrongCode } from "./wrongCodeStreak.ts"

/** What one check of a code decided; decided and written in one transaction, answered after it commits. */
type CodeCheck = Data.TaggedEnum<{
  NotFound: {}
  AlreadyUsed: {}
  Locked: { readonly lockedUntilMillis: number }
  Expired: {}
  Wrong: { readonly remainingAttempts: number; readonly lockedUntilMillis: number | null }
  Right: { readonly challenge: StoredChallenge }
}>
const CodeCheck = Data.taggedEnum<CodeCheck>()

type VerifyError = InvalidCode | CodeExpired | CodeAlreadyUsed | ChallengeNotFound | VerificationLocked

/**
 * Checks a code. The challenge row and then the address's streak row are locked for the
 * whole check, so concurrent checks of one challenge or one address (from any process)
 * run one after another: a right code is used exactly once and no wrong code goes uncounted.
 * The order of the answers: unknown, used, locked, expired, then the code itself.
 */
export const makeVerifyCode = (
  policy: VerificationCodesPolicy,
  sql: SqlClient.SqlClient,
  challenges: ChallengeStore,
  streaks: StreakStore
) => {
  const refusals = makeRefusals(policy)

  const check = (input: VerifyCodeInput, nowMillis: number): Effect.Effect<CodeCheck, SqlError> =>
    Effect.gen(function*() {
      const now = new Date(nowMillis)
      const challenge = yield* challenges.lock(input.challengeId)
      if (challenge === undefined || challenge.purpose !== input.purpose) return CodeCheck.NotFound()
      if (challenge.used) return CodeCheck.AlreadyUsed()
      const address = addressDigest(challenge.channel, challenge.destination)
      const streak = yield* streaks.lock(address, now)
      const lockEnd = activeLockEnd(streak, nowMillis)
      if (lockEnd !== null) return CodeCheck.Locked({ lockedUntilMillis: lockEnd })
      if (challenge.expiresAtMillis <= nowMillis) return CodeCheck.Expired()
      if (codeMatches(challenge.codeDigest, challenge.id, input.code)) {
        yield* challenges.markUsed(challenge.id, now)
        yield* streaks.save(address, clearedStreak, now)
        return CodeCheck.Right({ challenge })
      }
      const counted = countWrongCode(policy, streak, nowMillis)
      yield* streaks.save(address, counted.streak, now)
      return CodeCheck.Wrong({
        remainingAttempts: counted.remainingAttempts,
        lockedUntilMillis: counted.lockedUntilMillis
      })
    })

  const answer = (outcome: CodeCheck, nowMillis: number): Effect.Effect<VerifiedAddress, VerifyError> =>
    CodeCheck.$match(outcome, {
      NotFound: () => Effect.fail(challengeNotFound()),
      AlreadyUsed: () => Effect.fail(codeAlreadyUsed()),
      Locked: ({ lockedUntilMillis }) => Effect.fail(refusals.verificationLocked(lockedUntilMillis, nowMillis)),
      Expired: () => Effect.fail(refusals.codeExpired()),
      Wrong: ({ lockedUntilMillis, remainingAttempts }) =>
        Effect.fail(refusals.invalidCode(remainingAttempts, lockedUntilMillis)),
      Right: ({ challenge }) =>
        Effect.succeed({
          challengeId: challenge.id,
          purpose: challenge.purpose,
          channel: challenge.channel,
          destination: challenge.destination
        })
    })

  return (input: VerifyCodeInput): Effect.Effect<VerifiedAddress, VerifyError> =>
    Effect.gen(function*() {
      const nowMillis = yield* Clock.currentTimeMillis
      const outcome = yield* Effect.orDie(sql.withTransaction(check(input, nowMillis)))
      return yield* answer(outcome, nowMillis)
    }).pipe(Effect.withSpan("VerificationCodes.verify"))
}
