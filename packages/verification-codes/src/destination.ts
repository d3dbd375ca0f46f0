import type { VerificationChannel } from "./VerificationChallenge.ts"

/**
 * One address across channels and challenges: the key of its rate limit and of its
 * wrong-code streak. The caller has normalized the destination already.
 */
export const addressKey = (channel: VerificationChannel, destination: string): string => `${channel}:${destination}`

/**
 * `john@example.com` → `j***@example.com`: enough to recognize, without giving away the
 * address; a one-letter local part is hidden whole.
 */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf("@")
  if (at <= 0) return "***"
  return `${at > 1 ? email.slice(0, 1) : ""}***${email.slice(at)}`
}

/**
 * `+447700900789` → `+44*******789`: the first two digits (the country, mostly) and the
 * last three stay; a short number keeps only its last two.
 */
export const maskPhone = (phone: string): string => {
  const plus = phone.startsWith("+") ? "+" : ""
  const digits = plus === "" ? phone : phone.slice(1)
  const [head, tail] = digits.length >= 8 ? [2, 3] : [0, Math.min(2, Math.max(0, digits.length - 1))]
  const hidden = digits.length - head - tail
  return `${plus}${digits.slice(0, head)}${"*".repeat(hidden)}${digits.slice(digits.length - tail)}`
}

export const maskDestination = (channel: VerificationChannel, destination: string): string =>
  channel === "email" ? maskEmail(destination) : maskPhone(destination)
