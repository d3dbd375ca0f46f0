/** One-time verification codes by email or SMS: what a service's routes use. */
export { CodeAttempt, type CodeAttemptRefusal, makeCodeAttempts } from "./codeAttempts.ts"
export { codeDigest, codeMatches } from "./codeDigest.ts"
export { type ContactChannel, normalizeAddress, normalizeEmail, normalizePhone } from "./contactAddresses.ts"
export { maskDestination, maskEmail, maskPhone } from "./destination.ts"
export * from "./errors.ts"
export { standardCodeRules, type VerificationCodesPolicy } from "./policy.ts"
export { challengeNotFound, codeAlreadyUsed, makeRefusals, noCodeSent } from "./refusals.ts"
export {
  type CodeMessage,
  type ResendCodeInput,
  type SendCodeInput,
  VerificationChallenge,
  VerificationChannel,
  type VerifiedAddress,
  type VerifyCodeInput
} from "./VerificationChallenge.ts"
export { VerificationCodes, type VerificationCodesService, type VerificationSweep } from "./VerificationCodes.ts"
export { VerificationMigration } from "./VerificationMigration.ts"
export { VerificationSweeperLive } from "./VerificationSweeper.ts"
