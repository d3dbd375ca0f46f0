import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Errors of account records and ids (spec 1, Errors: "Ids and lookups"; contact details per Carbon). */

// Declared by the internal identity routes too, so defined in their contract's package.
export {
  AccountNotFound,
  EmailInUse,
  IdReserved,
  IdTaken,
  InvalidId,
  InvalidIdReason,
  PhoneInUse
} from "@platform/accounts-identity-api"

export class InvalidUuid extends ApiError<InvalidUuid>()("InvalidUuid", {
  code: "invalid_uuid",
  status: 400
}) {}

const ContactLimit = Schema.Struct({ limit: Schema.Number })

export class EmailLimitReached extends ApiError<EmailLimitReached>()("EmailLimitReached", {
  code: "email_limit_reached",
  status: 409,
  details: ContactLimit
}) {}

export class PhoneLimitReached extends ApiError<PhoneLimitReached>()("PhoneLimitReached", {
  code: "phone_limit_reached",
  status: 409,
  details: ContactLimit
}) {}

export class EmailNotFound extends ApiError<EmailNotFound>()("EmailNotFound", {
  code: "email_not_found",
  status: 404
}) {}

export class PhoneNotFound extends ApiError<PhoneNotFound>()("PhoneNotFound", {
  code: "phone_not_found",
  status: 404
}) {}

export class EmailNotVerified extends ApiError<EmailNotVerified>()("EmailNotVerified", {
  code: "email_not_verified",
  status: 409
}) {}

export class PhoneNotVerified extends ApiError<PhoneNotVerified>()("PhoneNotVerified", {
  code: "phone_not_verified",
  status: 409
}) {}

/** The primary of a channel that still has other verified addresses: another must become primary first. */
export class ContactIsPrimary extends ApiError<ContactIsPrimary>()("ContactIsPrimary", {
  code: "contact_is_primary",
  status: 409
}) {}

/** The account's only verified email or phone: a Carbon signs in with one, so it cannot go. */
export class LastVerifiedContact extends ApiError<LastVerifiedContact>()("LastVerifiedContact", {
  code: "last_verified_contact",
  status: 409
}) {}
