import { Duration } from "effect"
import type { VerificationCodesPolicy } from "./policy.ts"
import type { AddressStreak } from "./streakStore.ts"

/** When the address's lock ends, if it is locked at `nowMillis`; otherwise null. */
export const activeLockEnd = (streak: AddressStreak, nowMillis: number): number | null =>
  streak.lockedUntilMillis !== null && streak.lockedUntilMillis > nowMillis ? streak.lockedUntilMillis : null

export interface WrongCodeCounted {
  readonly streak: AddressStreak
  /** Wrong codes still allowed before the lock; 0 when this one locked the address. */
  readonly remainingAttempts: number
  /** Set when this wrong code locked the address. */
  readonly lockedUntilMillis: number | null
}

/**
 * One more wrong code for an address that is not locked. The policy's last allowed wrong code
 * in a row (the tenth) locks it for the lock duration (60 seconds) and starts the count again,
 * so after the lock there are as many attempts anew.
 */
export const countWrongCode = (
  policy: Pick<VerificationCodesPolicy, "wrongCodesBeforeLock" | "lockDuration">,
  streak: AddressStreak,
  nowMillis: number
): WrongCodeCounted => {
  const wrongCodes = streak.wrongCodes + 1
  if (wrongCodes < policy.wrongCodesBeforeLock) {
    return {
      streak: { wrongCodes, lockedUntilMillis: null },
      remainingAttempts: policy.wrongCodesBeforeLock - wrongCodes,
      lockedUntilMillis: null
    }
  }
  const lockedUntilMillis = nowMillis + Duration.toMillis(policy.lockDuration)
  return { streak: { wrongCodes: 0, lockedUntilMillis }, remainingAttempts: 0, lockedUntilMillis }
}

/** A right code ends the streak. */
export const clearedStreak: AddressStreak = { wrongCodes: 0, lockedUntilMillis: null }
