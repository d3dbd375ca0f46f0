import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, lenient, PageQueryFields, RateLimited } from "@platform/http"
import { Schema } from "effect"
import {
  ChallengeNotFound,
  CodeAlreadyUsed,
  CodeExpired,
  InvalidCode,
  VerificationChallenge,
  VerificationLocked
} from "@platform/verification-codes"
import {
  ContactIsPrimary,
  EmailInUse,
  EmailLimitReached,
  EmailNotFound,
  EmailNotVerified,
  LastVerifiedContact,
  PhoneInUse,
  PhoneLimitReached,
  PhoneNotFound,
  PhoneNotVerified
} from "../accounts/errors.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { EmailInPath, PhoneInPath } from "./addressInPath.ts"
import { Contact, ContactList } from "./Contact.ts"

export const AddEmail = lenient(Schema.Struct({
  email: Schema.String.pipe(Schema.maxLength(320))
})).annotations({ identifier: "AddEmail" })

export const AddPhone = lenient(Schema.Struct({
  phone: Schema.String.pipe(Schema.maxLength(32)).annotations({ description: "E.164, e.g. +447911123456" })
})).annotations({ identifier: "AddPhone" })

const ChallengeId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

export const VerifyContact = lenient(Schema.Struct({
  challenge_id: ChallengeId,
  code: Schema.String.pipe(Schema.pattern(/^\d{6}$/, { message: () => "must be the 6 digits of the code" }))
})).annotations({ identifier: "VerifyContact" })

export const ResendContactCode = lenient(Schema.Struct({ challenge_id: ChallengeId })).annotations({
  identifier: "ResendContactCode"
})

const ADD_NOTE = "Another account holding the address verified is told only to whoever verifies it (409 at verify), " +
  "never here. 20 adds per 10 minutes per account and 30 per IP (emails and phones together), " +
  "plus the verification codes' limits."

/** What differs between the emails and the phones groups: names, the path schema, the channel's errors, the words. */
interface ContactChannel<
  Name extends string,
  Param extends string,
  PathSchema extends Schema.Schema.Any,
  AddSchema extends Schema.Schema.Any,
  E extends ChannelErrors
> {
  readonly name: Name
  readonly param: Param
  readonly path: PathSchema & HttpApiEndpoint.HttpApiEndpoint.ValidatePath<PathSchema>
  readonly add: AddSchema
  readonly errors: E
  readonly title: string
  readonly words: {
    readonly list: string
    readonly add: string
    readonly verify: string
    readonly primary: string
    readonly remove: string
    readonly group: string
  }
}

interface ChannelErrors {
  readonly limitReached: ErrorClass
  readonly inUse: ErrorClass
  readonly notFound: ErrorClass
  readonly notVerified: ErrorClass
}
type ErrorClass = Parameters<typeof errorResponse>[0]

const contactGroup = <
  Name extends string,
  Param extends string,
  PathSchema extends Schema.Schema.Any,
  AddSchema extends Schema.Schema.Any,
  E extends ChannelErrors
>(channel: ContactChannel<Name, Param, PathSchema, AddSchema, E>) =>
  HttpApiGroup.make(channel.name)
    .add(
      HttpApiEndpoint.get("list", `/v1/me/${channel.name}`)
        .setUrlParams(Schema.Struct(PageQueryFields))
        .addSuccess(ContactList)
        .addError(errorResponse(InvalidCursor))
        .annotate(OpenApi.Description, channel.words.list)
    )
    .add(
      HttpApiEndpoint.post("add", `/v1/me/${channel.name}`)
        .setPayload(channel.add)
        .addSuccess(VerificationChallenge, { status: 202 })
        .addError(errorResponse(RateLimited))
        .addError(errorResponse(channel.errors.limitReached))
        .addError(errorResponse(channel.errors.inUse))
        .annotate(OpenApi.Description, `${channel.words.add} ${ADD_NOTE}`)
    )
    .add(
      HttpApiEndpoint.post("verify", `/v1/me/${channel.name}/verify`)
        .setPayload(VerifyContact)
        .addSuccess(Contact)
        .addError(errorResponse(InvalidCode))
        .addError(errorResponse(CodeExpired))
        .addError(errorResponse(CodeAlreadyUsed))
        .addError(errorResponse(ChallengeNotFound))
        .addError(errorResponse(VerificationLocked))
        .addError(errorResponse(channel.errors.inUse))
        .addError(errorResponse(channel.errors.notFound))
        .annotate(OpenApi.Description, channel.words.verify)
    )
    .add(
      HttpApiEndpoint.post("resend", `/v1/me/${channel.name}/resend`)
        .setPayload(ResendContactCode)
        .addSuccess(VerificationChallenge, { status: 202 })
        .addError(errorResponse(ChallengeNotFound))
        .addError(errorResponse(CodeAlreadyUsed))
        .addError(errorResponse(RateLimited))
        .annotate(OpenApi.Description, "Sends a new code for the challenge; the previous code stops working.")
    )
    .add(
      HttpApiEndpoint.post("makePrimary", `/v1/me/${channel.name}/:${channel.param}/primary`)
        .setPath(channel.path)
        .addSuccess(Contact)
        .addError(errorResponse(channel.errors.notFound))
        .addError(errorResponse(channel.errors.notVerified))
        .annotate(OpenApi.Description, channel.words.primary)
    )
    .add(
      HttpApiEndpoint.del("remove", `/v1/me/${channel.name}/:${channel.param}`)
        .setPath(channel.path)
        .addSuccess(Schema.Void)
        .addError(errorResponse(channel.errors.notFound))
        .addError(errorResponse(ContactIsPrimary))
        .addError(errorResponse(LastVerifiedContact))
        .annotate(OpenApi.Description, channel.words.remove)
    )
    .addError(errorResponse(CarbonOnly))
    .middleware(AccountAuth)
    .annotate(OpenApi.Title, channel.title)
    .annotate(OpenApi.Description, channel.words.group)

export class EmailsApi extends contactGroup({
  name: "emails",
  param: "email",
  path: EmailInPath,
  add: AddEmail,
  errors: { limitReached: EmailLimitReached, inUse: EmailInUse, notFound: EmailNotFound, notVerified: EmailNotVerified },
  title: "Emails",
  words: {
    list: "The caller's email addresses, primary first, then oldest first; paged with limit and cursor.",
    add: "Adds an email address, unverified, and sends it a code (202 with the challenge); adding one that is " +
      "pending sends a new code, one verified on this account is 409 email_in_use. At most 10 per account.",
    verify: "Verifies the address with the code sent when it was added. The first verified email becomes primary. " +
      "409 email_in_use when another account verified it first; 404 email_not_found when it was removed meanwhile.",
    primary: "Makes a verified email address primary; the previous primary stops being primary.",
    remove: "Removes an email address. The account's last verified email or phone cannot go (409 last_verified_contact), " +
      "nor the primary while another verified email remains (409 contact_is_primary).",
    group: "The signed-in Carbon's email addresses. Carbon only: a Silicon is 403 carbon_only."
  }
}) {}

export class PhonesApi extends contactGroup({
  name: "phones",
  param: "phone",
  path: PhoneInPath,
  add: AddPhone,
  errors: { limitReached: PhoneLimitReached, inUse: PhoneInUse, notFound: PhoneNotFound, notVerified: PhoneNotVerified },
  title: "Phones",
  words: {
    list: "The caller's phone numbers, primary first, then oldest first; paged with limit and cursor.",
    add: "Adds a phone number (E.164), unverified, and sends it a code by SMS (202 with the challenge); adding one " +
      "that is pending sends a new code, one verified on this account is 409 phone_in_use. At most 10 per account.",
    verify: "Verifies the number with the code sent when it was added. The first verified phone becomes primary. " +
      "409 phone_in_use when another account verified it first; 404 phone_not_found when it was removed meanwhile.",
    primary: "Makes a verified phone number primary; the previous primary stops being primary.",
    remove: "Removes a phone number. The account's last verified email or phone cannot go (409 last_verified_contact), " +
      "nor the primary while another verified phone remains (409 contact_is_primary).",
    group: "The signed-in Carbon's phone numbers. Carbon only: a Silicon is 403 carbon_only."
  }
}) {}
