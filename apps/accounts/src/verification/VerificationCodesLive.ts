import { VerificationCodes } from "@platform/verification-codes"
import { accountsVerificationPolicy } from "./policy.ts"

/** Verification codes with the numbers of spec 1. */
export const VerificationCodesLive = VerificationCodes.layer(accountsVerificationPolicy)
