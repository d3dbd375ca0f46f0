import { Context, type Effect } from "effect"
import type { PhoneVerificationUnavailable } from "./errors.ts"

/**
 * Spec 2: phone codes are generated and checked by a phone verification provider, not by IAM.
 * One pending code per phone number, as the provider keeps it.
 */
export interface PhoneVerifierService {
  /** Sends a new code to `phone` (E.164) for the provider's code lifetime (10 minutes). */
  readonly start: (phone: string) => Effect.Effect<void, PhoneVerificationUnavailable>
  /** Whether `code` is the phone's pending code; a right one is used up. */
  readonly check: (phone: string, code: string) => Effect.Effect<boolean, PhoneVerificationUnavailable>
}

export class PhoneVerifier extends Context.Tag("iam/PhoneVerifier")<PhoneVerifier, PhoneVerifierService>() {}
