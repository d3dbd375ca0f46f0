import type { RateLimitRule } from "@platform/rate-limit"
import type { CodeMessage } from "@platform/verification-codes"

/** Every login challenge asked for, answered 201 or 404: asking about identities is limited per network. */
export const loginChallengesPerClientAddress: RateLimitRule = {
  id: "iam_login_challenges_ip",
  operation: "POST /api/v1/login/challenges",
  limit: 60,
  window: "10 minutes",
  per: "IP"
}

export const signupChallengesPerClientAddress: RateLimitRule = {
  id: "iam_signup_challenges_ip",
  operation: "POST /api/v1/signup/challenges",
  limit: 30,
  window: "10 minutes",
  per: "IP"
}

export const loginMessage: CodeMessage = (code) => ({
  subject: "Your login code",
  text: `Your login code is ${code}. It expires in 10 minutes. If you did not ask to log in, ignore this message.`
})

export const signupMessage: CodeMessage = (code) => ({
  subject: "Your sign-up code",
  text: `Your sign-up code is ${code}. It expires in 10 minutes. If you did not ask to sign up, ignore this message.`
})
