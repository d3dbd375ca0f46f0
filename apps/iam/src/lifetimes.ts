import { Duration } from "effect"

/** Spec 2, Authentication: credential lifetimes are fixed; startup refuses an override. */
export const LIFETIMES = {
  signupSession: Duration.hours(48),
  oneTimeCode: Duration.minutes(10),
  accessToken: Duration.minutes(30),
  sessionFamily: Duration.days(900),
  applicationFamily: Duration.days(900),
  shortLivedToken: Duration.minutes(2),
  stepUpToken: Duration.minutes(5),
  invitation: Duration.hours(48),
  onBehalfOfProof: Duration.seconds(60),
  secretReplay: Duration.minutes(10),
  ssoSetupLink: Duration.minutes(5)
} as const

/** Settings an operator might try; any of them set stops the start with a message naming it. */
export const LIFETIME_OVERRIDES = [
  "IAM_ACCESS_TOKEN_TTL",
  "IAM_REFRESH_TOKEN_TTL",
  "IAM_SESSION_TTL",
  "IAM_OTP_TTL",
  "IAM_SLT_TTL",
  "IAM_STEP_UP_TTL",
  "IAM_INVITATION_TTL",
  "IAM_SIGNUP_SESSION_TTL",
  "IAM_SSO_SETUP_LINK_TTL"
] as const
