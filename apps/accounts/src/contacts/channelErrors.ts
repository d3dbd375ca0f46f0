import { Effect } from "effect"
import type { ContactChannel } from "@platform/verification-codes"
import {
  EmailInUse,
  EmailLimitReached,
  EmailNotFound,
  EmailNotVerified,
  PhoneInUse,
  PhoneLimitReached,
  PhoneNotFound,
  PhoneNotVerified
} from "../accounts/errors.ts"

const EMAIL_ERRORS = [EmailInUse, EmailLimitReached, EmailNotFound, EmailNotVerified] as const
const PHONE_ERRORS = [PhoneInUse, PhoneLimitReached, PhoneNotFound, PhoneNotVerified] as const

type EmailError = InstanceType<typeof EMAIL_ERRORS[number]>
type PhoneError = InstanceType<typeof PHONE_ERRORS[number]>

/** The errors named for the channel that is not `C`. */
export type OtherChannelError<C extends ContactChannel> = C extends "email" ? PhoneError : EmailError

/**
 * The repository names its errors by channel (email_in_use or phone_in_use, …) and answers
 * only those of the channel it was asked about. This drops the other channel's from the
 * type (one would be a defect), so each route declares exactly its own errors.
 */
export const ofChannel = <C extends ContactChannel>(channel: C) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Extract<E, OtherChannelError<C>>>, R> =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, OtherChannelError<C>> =>
      (channel === "email" ? PHONE_ERRORS : EMAIL_ERRORS).some((OtherError) => error instanceof OtherError),
    Effect.die
  )
