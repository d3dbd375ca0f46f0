import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { sha256Hex } from "@platform/crypto"
import { Data, Effect } from "effect"
import type { InvalidCode, VerificationLocked } from "./errors.ts"
import type { VerificationCodesPolicy } from "./policy.ts"
import { makeRefusals } from "./refusals.ts"
import { makeStreakStore } from "./streakStore.ts"
import { activeLockEnd, clearedStreak, countWrongCode } from "./wrongCodeStreak.ts"

/** What one attempt at a code decided for its subject. */
export type CodeAttempt = Data.TaggedEnum<{
  Locked: { readonly lockedUntilMillis: number }
  Wrong: { readonly remainingAttempts: number; readonly lockedUntilMillis: number | null }
  Right: {}
}>
export const CodeAttempt = Data.taggedEnum<CodeAttempt>()

export type CodeAttemptRefusal = Exclude<CodeAttempt, { readonly _tag: "Right" }>

/**
 * Wrong codes in a row counted per subject (an address for `VerificationCodes.verify`; a service
 * may count per what its own challenges stand for, e.g. an identity), with the policy's lock.
 */
export const makeCodeAttempts = (
  policy: Pick<VerificationCodesPolicy, "wrongCodesBeforeLock" | "lockDuration" | "codeLifetime">,
  sql: SqlClient.SqlClient
) => {
  const streaks = makeStreakStore(sql)
  const refusals = makeRefusals(policy)

  /**
   * One attempt for `subject`: refused while the subject is locked; otherwise `isRight` decides
   * (a failure of it is the caller's own refusal, e.g. an expired code, and counts nothing), a
   * wrong code is counted (the last allowed one locks) and a right one ends the streak. Run it
   * inside a transaction: the subject's row stays locked until it ends, so concurrent attempts
   * for one subject, from any process, run one after another and none goes uncounted.
   */
  const attempt = <E, R>(
    subject: string,
    nowMillis: number,
    isRight: Effect.Effect<boolean, E, R>
  ): Effect.Effect<CodeAttempt, E | SqlError, R> =>
    Effect.gen(function*() {
      const now = new Date(nowMillis)
      const key = sha256Hex(subject)
      const streak = yield* streaks.lock(key, now)
      const lockEnd = activeLockEnd(streak, nowMillis)
      if (lockEnd !== null) return CodeAttempt.Locked({ lockedUntilMillis: lockEnd })
      if (yield* isRight) {
        yield* streaks.save(key, clearedStreak, now)
        return CodeAttempt.Right()
      }
      const counted = countWrongCode(policy, streak, nowMillis)
      yield* streaks.save(key, counted.streak, now)
      return CodeAttempt.Wrong({ remainingAttempts: counted.remainingAttempts, lockedUntilMillis: counted.lockedUntilMillis })
    })

  /** The refusal a person reads for a locked subject or a wrong code. */
  const refusal = (outcome: CodeAttemptRefusal, nowMillis: number): InvalidCode | VerificationLocked =>
    outcome._tag === "Locked"
      ? refusals.verificationLocked(outcome.lockedUntilMillis, nowMillis)
      : refusals.invalidCode(outcome.remainingAttempts, outcome.lockedUntilMillis)

  return { attempt, refusal } as const
}
