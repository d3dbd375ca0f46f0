import { Duration } from "effect"
import { LOCK_DURATION, WRONG_CODES_BEFORE_LOCK } from "./policy.ts"
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
 * One more wrong code for an address that is not locked. The tenth in a row locks it for
 * 60 seconds and starts the count again, so after the lock there are ten attempts anew.
 */
export const countWrongCode = (streak: AddressStreak, nowMillis: number): WrongCodeCounted => {
  const wrongCodes = streak.wrongCodes + 1
  if (wrongCodes < WRONG_CODES_BEFORE_LOCK) {
    return {
      streak: { wrongCodes, lockedUntilMillis: null },
      remainingAttempts: WRONG_CODES_BEFORE_LOCK - wrongCodes,
      lockedUntilMillis: null
    }
  }
  const lockedUntilMillis = nowMillis + Duration.toMillis(LOCK_DURATION)
  return { streak: { wrongCodes: 0, lockedUntilMillis }, remainingAttempts: 0, lockedUntilMillis }
}

/** A right code ends the streak. */
export const clearedStreak: AddressStreak = { wrongCodes: 0, lockedUntilMillis: null }
