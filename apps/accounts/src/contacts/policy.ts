import type { RateLimitRule } from "@platform/rate-limit"
import type { CodeMessage, ContactChannel, VerificationChannel } from "@platform/verification-codes"

/** The numbers and words of adding an email or phone (spec 1, Limits: Rate limits). */

/** Emails and phones together: one allowance per account and one per network. */
export const addsPerAccount: RateLimitRule = {
  id: "contact_adds_account",
  operation: "adding an email or phone",
  limit: 20,
  window: "10 minutes",
  per: "account"
}

export const addsPerIp: RateLimitRule = {
  id: "contact_adds_ip",
  operation: "adding an email or phone",
  limit: 30,
  window: "10 minutes",
  per: "IP"
}

/** A code for adding an address confirms it for this account only, and for nothing else (not a sign-in). */
export const addPurpose = (channel: ContactChannel, accountUuid: string): string =>
  `add_${channel}:${accountUuid}`

export const verificationChannelOf = (channel: ContactChannel): VerificationChannel =>
  channel === "email" ? "email" : "sms"

/**
 * The message carrying the code. It names no account and says nothing of whether another
 * account holds the address: the person reading it may not be the one who asked.
 */
export const addCodeMessage = (channel: ContactChannel): CodeMessage => (code) =>
  channel === "email"
    ? {
      subject: "Confirm your email address",
      text: `Your code to add this email address to an account is ${code}. It expires in 10 minutes. ` +
        "If you did not ask for it, ignore this message."
    }
    : {
      subject: "Confirm your phone number",
      text: `Your code to add this phone number to an account is ${code}. It expires in 10 minutes.`
    }
