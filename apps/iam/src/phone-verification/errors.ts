import { ApiError } from "@platform/http"

/** The phone verification provider could not be reached or refused to work; nothing was counted against the person. */
export class PhoneVerificationUnavailable extends ApiError<PhoneVerificationUnavailable>()("PhoneVerificationUnavailable", {
  code: "phone_verification_unavailable",
  status: 503
}) {}
