import { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, NoCodeSent, VerificationLocked } from "./errors.ts"
import { WRONG_CODES_BEFORE_LOCK } from "./policy.ts"

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

export const codeExpired = () =>
  new CodeExpired({
    message: "This code has expired; codes are valid for 10 minutes.",
    hint: "Ask for a new code."
  })

const secondsUntil = (untilMillis: number, nowMillis: number): number =>
  Math.max(1, Math.ceil((untilMillis - nowMillis) / 1000))

export const verificationLocked = (lockedUntilMillis: number, nowMillis: number) => {
  const retryAfterSeconds = secondsUntil(lockedUntilMillis, nowMillis)
  return new VerificationLocked({
    message: `Too many wrong codes in a row for this address: codes to it are refused for now.`,
    hint: `Retry after ${retryAfterSeconds} seconds.`,
    details: { locked_until: new Date(lockedUntilMillis).toISOString(), retry_after_seconds: retryAfterSeconds }
  })
}

export const invalidCode = (remainingAttempts: number, lockedUntilMillis: number | null) =>
  lockedUntilMillis === null
    ? new InvalidCode({
      message: "The code is not right.",
      hint: `${remainingAttempts} more wrong ${
        remainingAttempts === 1 ? "code locks" : "codes lock"
      } this address for 60 seconds.`,
      details: { remaining_attempts: remainingAttempts }
    })
    : new InvalidCode({
      message: `The code is not right. That was the ${WRONG_CODES_BEFORE_LOCK}th wrong code in a row for this address.`,
      hint: "Codes to this address are refused for 60 seconds.",
      details: { remaining_attempts: remainingAttempts, locked_until: new Date(lockedUntilMillis).toISOString() }
    })

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
