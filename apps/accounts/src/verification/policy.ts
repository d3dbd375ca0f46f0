import { standardCodeRules, type VerificationCodesPolicy } from "@platform/verification-codes"
import { Duration } from "effect"

/**
 * The numbers of spec 1 for verification codes (Limits: Rate limits, Lockouts, Lifetimes;
 * Retention): the six digits, 10 minutes and lockout every service shares, and accounts' own
 * limits. `resendSuggestedAfter` is a suggestion, not enforced (see docs/decisions.md).
 */
export const accountsVerificationPolicy: VerificationCodesPolicy = {
  ...standardCodeRules,
  resendSuggestedAfter: Duration.seconds(30),
  retentionAfterExpiry: Duration.days(1),
  codesPerAddress: {
    id: "verification_codes_address",
    operation: "sending verification codes to one email or phone",
    limit: 10,
    window: "10 minutes",
    per: "address"
  },
  codesPerClientAddress: {
    id: "verification_codes_ip",
    operation: "sending verification codes from one network",
    limit: 30,
    window: "10 minutes",
    per: "IP"
  },
  challengeIdPrefix: "vch_"
}
