import type { RateLimitRule } from "@platform/rate-limit"
import { Duration } from "effect"

/** The numbers a service's contract sets for its one-time codes, passed in by the service. */
export interface VerificationCodesPolicy {
  readonly codeDigits: number
  readonly codeLifetime: Duration.Duration
  /** Shown to the person as `resend_available_at`; a suggestion, not enforced. */
  readonly resendSuggestedAfter: Duration.Duration
  /** Wrong codes in a row for one address that lock it; the count starts again after the lock. */
  readonly wrongCodesBeforeLock: number
  readonly lockDuration: Duration.Duration
  /** Challenges are deleted this long after they expire; idle wrong-code streaks this long after the last attempt. */
  readonly retentionAfterExpiry: Duration.Duration
  /** Every code sent (resends included) counts against both. */
  readonly codesPerAddress: RateLimitRule
  readonly codesPerClientAddress: RateLimitRule
  /** Challenge ids are this prefix plus 128 random bits, e.g. `vch_`. */
  readonly challengeIdPrefix: string
}

/**
 * What spec 1 (accounts) and spec 2 (IAM) both fix for one-time codes: six digits, valid for
 * 10 minutes, the tenth wrong code in a row locks for 60 seconds and then ten attempts start anew.
 */
export const standardCodeRules = {
  codeDigits: 6,
  codeLifetime: Duration.minutes(10),
  wrongCodesBeforeLock: 10,
  lockDuration: Duration.seconds(60)
} satisfies Partial<VerificationCodesPolicy>

const isPositiveInteger = (value: number) => Number.isSafeInteger(value) && value > 0

/** A policy that cannot work (no digits, no attempts) is a programming error in the service. */
export const checkPolicy = (policy: VerificationCodesPolicy): string | undefined =>
  !isPositiveInteger(policy.codeDigits) || !isPositiveInteger(policy.wrongCodesBeforeLock)
    ? "VerificationCodes: codeDigits and wrongCodesBeforeLock must be positive integers"
    : undefined
