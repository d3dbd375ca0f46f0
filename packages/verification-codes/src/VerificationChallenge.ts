import { Schema } from "effect"

/** Where a code goes: an email address or a phone number (E.164) by SMS. */
export const VerificationChannel = Schema.Literal("email", "sms")
export type VerificationChannel = typeof VerificationChannel.Type

/**
 * A challenge as the person sees it (in spec 1, the `challenge` of a hosted flow and the
 * result of starting a terminal login). Routes embed these fields in their own response schemas.
 */
export const VerificationChallenge = Schema.Struct({
  challenge_id: Schema.String,
  channel: VerificationChannel,
  destination: Schema.String.annotations({ description: "Masked, e.g. j***@example.com or +44*******789" }),
  expires_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" }),
  resend_available_at: Schema.String.annotations({
    description: "When offering to send a new code makes sense (RFC 3339 UTC with milliseconds)"
  })
}).annotations({ identifier: "VerificationChallenge" })
export type VerificationChallenge = typeof VerificationChallenge.Type

/** The text of the message that carries `code`, written by the route that knows why it is sent. */
export type CodeMessage = (code: string) => { readonly subject: string; readonly text: string }

export interface SendCodeInput {
  readonly channel: VerificationChannel
  /** Already normalized by the caller (lowercased email, E.164 phone): rate limits and lockouts key on it. */
  readonly destination: string
  /**
   * What the code is for, and for whom where it matters, e.g. `login` or
   * `add_email:<account id>`; the service names its purposes. Resend, describe and
   * verify must name the same purpose; a challenge of another purpose is not found.
   */
  readonly purpose: string
  /** The caller's client address, for the per-IP limit. */
  readonly clientAddress: string
  readonly message: CodeMessage
}

export interface ResendCodeInput {
  readonly challengeId: string
  readonly purpose: string
  readonly clientAddress: string
  readonly message: CodeMessage
}

export interface VerifyCodeInput {
  readonly challengeId: string
  readonly purpose: string
  /** As typed by the person; anything but the current code counts as a wrong code. */
  readonly code: string
}

/** What a right code proves: the person holds `destination` (unmasked). */
export interface VerifiedAddress {
  readonly challengeId: string
  readonly purpose: string
  readonly channel: VerificationChannel
  readonly destination: string
}
