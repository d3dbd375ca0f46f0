import { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, NoCodeSent, VerificationLocked } from "./errors.ts"
import type { VerificationCodesPolicy } from "./policy.ts"
import { durationInWords, ordinal, secondsInWords } from "./words.ts"

/** The errors of this area with the words a person reads. */

export const challengeNotFound = () =>
  new ChallengeNotFound({
    message: "There is no such verification challenge.",
    hint: "Ask for a new code."
  })

export const codeAlreadyUsed = () =>
  new CodeAlreadyUsed({
    message: "This code has already been used.",
    hint: "Ask for a new code."
  })

const secondsUntil = (untilMillis: number, nowMillis: number): number =>
  Math.max(1, Math.ceil((untilMillis - nowMillis) / 1000))

/** The refusals whose words name the policy's numbers (lifetime, lock, attempts). */
export const makeRefusals = (
  policy: Pick<VerificationCodesPolicy, "codeLifetime" | "lockDuration" | "wrongCodesBeforeLock">
) => {
  const lifetime = durationInWords(policy.codeLifetime)
  const lockSeconds = secondsInWords(policy.lockDuration)

  const codeExpired = () =>
    new CodeExpired({
      message: `This code has expired; codes are valid for ${lifetime}.`,
      hint: "Ask for a new code."
    })

  const verificationLocked = (lockedUntilMillis: number, nowMillis: number) => {
    const retryAfterSeconds = secondsUntil(lockedUntilMillis, nowMillis)
    return new VerificationLocked({
      message: `Too many wrong codes in a row for this address: codes to it are refused for now.`,
      hint: `Retry after ${retryAfterSeconds} seconds.`,
      details: { locked_until: new Date(lockedUntilMillis).toISOString(), retry_after_seconds: retryAfterSeconds }
    })
  }

  const invalidCode = (remainingAttempts: number, lockedUntilMillis: number | null) =>
    lockedUntilMillis === null
      ? new InvalidCode({
        message: "The code is not right.",
        hint: `${remainingAttempts} more wrong ${
          remainingAttempts === 1 ? "code locks" : "codes lock"
        } this address for ${lockSeconds}.`,
        details: { remaining_attempts: remainingAttempts }
      })
      : new InvalidCode({
        message: `The code is not right. That was the ${
          ordinal(policy.wrongCodesBeforeLock)
        } wrong code in a row for this address.`,
        hint: `Codes to this address are refused for ${lockSeconds}.`,
        details: { remaining_attempts: remainingAttempts, locked_until: new Date(lockedUntilMillis).toISOString() }
      })

  return { codeExpired, verificationLocked, invalidCode } as const
}

/**
 * For routes whose resource has no challenge yet (a flow at verify_code, an added email or
 * phone for which no code was requested): the service itself never answers it, since a
 * challenge exists only together with its enqueued message.
 */
export const noCodeSent = () =>
  new NoCodeSent({
    message: "No code has been sent for this yet.",
    hint: "Ask for a code first."
  })
