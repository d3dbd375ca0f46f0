import type { RateLimitRule } from "@platform/rate-limit"
import { standardCodeRules, type VerificationCodesPolicy } from "@platform/verification-codes"
import { Duration } from "effect"
import { LIFETIMES } from "../lifetimes.ts"

/**
 * Spec 2's one-time codes (six digits, 10 minutes, ten wrong ones then 60 seconds) and, where
 * spec 2 leaves IAM's limits open, spec 1's numbers for codes (decisions.md, "Rate limits").
 * IAM keeps its own challenges, so the resend suggestion and the challenge prefix go unused.
 */
export const iamVerificationPolicy: VerificationCodesPolicy = {
  ...standardCodeRules,
  codeLifetime: LIFETIMES.oneTimeCode,
  resendSuggestedAfter: Duration.seconds(30),
  retentionAfterExpiry: Duration.days(1),
  codesPerAddress: {
    id: "iam_codes_address",
    operation: "sending codes to one email or phone",
    limit: 10,
    window: "10 minutes",
    per: "address"
  },
  codesPerClientAddress: {
    id: "iam_codes_ip",
    operation: "sending codes from one network",
    limit: 30,
    window: "10 minutes",
    per: "IP"
  },
  challengeIdPrefix: "chs_"
}

/** Checks of codes from one network, right or wrong, across every challenge: spraying guesses over many subjects. */
export const codeChecksPerClientAddress: RateLimitRule = {
  id: "iam_code_checks_ip",
  operation: "checking codes from one network",
  limit: 120,
  window: "10 minutes",
  per: "IP"
}
