/** Verification codes: what the routes of other areas use. */
export * from "./errors.ts"
export { VerificationMigration } from "./VerificationMigration.ts"
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
export { VerificationSweeperLive } from "./VerificationSweeper.ts"
export { noCodeSent } from "./refusals.ts"
