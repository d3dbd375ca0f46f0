import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Errors of account records and ids (spec 1, Errors: "Ids and lookups"; contact details per Carbon). */

export const InvalidIdReason = Schema.Literal("invalid", "reserved_word")
export type InvalidIdReason = typeof InvalidIdReason.Type

export class InvalidId extends ApiError<InvalidId>()("InvalidId", {
  code: "invalid_id",
  status: 422,
  details: Schema.Struct({ reason: InvalidIdReason })
}) {}

export class IdTaken extends ApiError<IdTaken>()("IdTaken", {
  code: "id_taken",
  status: 409,
  details: Schema.Struct({
    suggestions: Schema.Array(Schema.String).annotations({ description: "A few free ids close to the one asked" })
  })
}) {}

export class IdReserved extends ApiError<IdReserved>()("IdReserved", {
  code: "id_reserved",
  status: 409,
  details: Schema.Struct({
    reserved_until: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
  })
}) {}

export class InvalidUuid extends ApiError<InvalidUuid>()("InvalidUuid", {
  code: "invalid_uuid",
  status: 400
}) {}

export class AccountNotFound extends ApiError<AccountNotFound>()("AccountNotFound", {
  code: "account_not_found",
  status: 404
}) {}

export class EmailInUse extends ApiError<EmailInUse>()("EmailInUse", {
  code: "email_in_use",
  status: 409
}) {}

export class PhoneInUse extends ApiError<PhoneInUse>()("PhoneInUse", {
  code: "phone_in_use",
  status: 409
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
