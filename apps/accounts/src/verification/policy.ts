import type { RateLimitRule } from "@platform/rate-limit"
import { Duration } from "effect"

/** The numbers of spec 1 for verification codes (Limits: Rate limits, Lockouts, Lifetimes; Retention). */

export const CODE_DIGITS = 6

export const CODE_LIFETIME: Duration.Duration = Duration.minutes(10)

/** Shown to the person as `resend_available_at`; a suggestion, not enforced (see docs/decisions.md). */
export const RESEND_SUGGESTED_AFTER: Duration.Duration = Duration.seconds(30)

/** Wrong codes in a row for one address that lock it. */
export const WRONG_CODES_BEFORE_LOCK = 10

export const LOCK_DURATION: Duration.Duration = Duration.seconds(60)

/** Challenges are deleted this long after they expire; idle wrong-code streaks this long after the last attempt. */
export const RETENTION_AFTER_EXPIRY: Duration.Duration = Duration.days(1)

export const codesPerAddress: RateLimitRule = {
  id: "verification_codes_address",
  operation: "sending verification codes to one email or phone",
  limit: 10,
  window: "10 minutes",
  per: "address"
}

export const codesPerIp: RateLimitRule = {
  id: "verification_codes_ip",
  operation: "sending verification codes from one network",
  limit: 30,
  window: "10 minutes",
  per: "IP"
}
