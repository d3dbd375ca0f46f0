import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, lenient, RateLimited } from "@platform/http"
import { Schema } from "effect"
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
import {
  ChallengeNotFound,
  CodeAlreadyUsed,
  CodeExpired,
  InvalidCode,
  VerificationChallenge,
  VerificationLocked
} from "../verification/index.ts"
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

export class EmailsApi extends HttpApiGroup.make("emails")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/emails")
      .addSuccess(ContactList)
      .annotate(OpenApi.Description, "The caller's email addresses, primary first, then oldest first.")
  )
  .add(
    HttpApiEndpoint.post("add", "/v1/me/emails")
      .setPayload(AddEmail)
      .addSuccess(VerificationChallenge, { status: 202 })
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(EmailLimitReached))
      .addError(errorResponse(EmailInUse))
      .annotate(
        OpenApi.Description,
        "Adds an email address, unverified, and sends it a code (202 with the challenge); adding one that is " +
          "pending sends a new code, one verified on this account is 409 email_in_use. At most 10 per account. " +
          ADD_NOTE
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/v1/me/emails/verify")
      .setPayload(VerifyContact)
      .addSuccess(Contact)
      .addError(errorResponse(InvalidCode))
      .addError(errorResponse(CodeExpired))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(VerificationLocked))
      .addError(errorResponse(EmailInUse))
      .addError(errorResponse(EmailNotFound))
      .annotate(
        OpenApi.Description,
        "Verifies the address with the code sent when it was added. The first verified email becomes primary. " +
          "409 email_in_use when another account verified it first; 404 email_not_found when it was removed meanwhile."
      )
  )
  .add(
    HttpApiEndpoint.post("resend", "/v1/me/emails/resend")
      .setPayload(ResendContactCode)
      .addSuccess(VerificationChallenge, { status: 202 })
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(RateLimited))
      .annotate(OpenApi.Description, "Sends a new code for the challenge; the previous code stops working.")
  )
  .add(
    HttpApiEndpoint.post("makePrimary", "/v1/me/emails/:email/primary")
      .setPath(EmailInPath)
      .addSuccess(Contact)
      .addError(errorResponse(EmailNotFound))
      .addError(errorResponse(EmailNotVerified))
      .annotate(OpenApi.Description, "Makes a verified email address primary; the previous primary stops being primary.")
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/me/emails/:email")
      .setPath(EmailInPath)
      .addSuccess(Schema.Void)
      .addError(errorResponse(EmailNotFound))
      .addError(errorResponse(ContactIsPrimary))
      .addError(errorResponse(LastVerifiedContact))
      .annotate(
        OpenApi.Description,
        "Removes an email address. The account's last verified email or phone cannot go (409 last_verified_contact), " +
          "nor the primary while another verified email remains (409 contact_is_primary)."
      )
  )
  .addError(errorResponse(CarbonOnly))
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Emails")
  .annotate(OpenApi.Description, "The signed-in Carbon's email addresses. Carbon only: a Silicon is 403 carbon_only.")
{}

export class PhonesApi extends HttpApiGroup.make("phones")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/phones")
      .addSuccess(ContactList)
      .annotate(OpenApi.Description, "The caller's phone numbers, primary first, then oldest first.")
  )
  .add(
    HttpApiEndpoint.post("add", "/v1/me/phones")
      .setPayload(AddPhone)
      .addSuccess(VerificationChallenge, { status: 202 })
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(PhoneLimitReached))
      .addError(errorResponse(PhoneInUse))
      .annotate(
        OpenApi.Description,
        "Adds a phone number (E.164), unverified, and sends it a code by SMS (202 with the challenge); adding one " +
          "that is pending sends a new code, one verified on this account is 409 phone_in_use. At most 10 per " +
          "account. " + ADD_NOTE
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/v1/me/phones/verify")
      .setPayload(VerifyContact)
      .addSuccess(Contact)
      .addError(errorResponse(InvalidCode))
      .addError(errorResponse(CodeExpired))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(VerificationLocked))
      .addError(errorResponse(PhoneInUse))
      .addError(errorResponse(PhoneNotFound))
      .annotate(
        OpenApi.Description,
        "Verifies the number with the code sent when it was added. The first verified phone becomes primary. " +
          "409 phone_in_use when another account verified it first; 404 phone_not_found when it was removed meanwhile."
      )
  )
  .add(
    HttpApiEndpoint.post("resend", "/v1/me/phones/resend")
      .setPayload(ResendContactCode)
      .addSuccess(VerificationChallenge, { status: 202 })
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(RateLimited))
      .annotate(OpenApi.Description, "Sends a new code for the challenge; the previous code stops working.")
  )
  .add(
    HttpApiEndpoint.post("makePrimary", "/v1/me/phones/:phone/primary")
      .setPath(PhoneInPath)
      .addSuccess(Contact)
      .addError(errorResponse(PhoneNotFound))
      .addError(errorResponse(PhoneNotVerified))
      .annotate(OpenApi.Description, "Makes a verified phone number primary; the previous primary stops being primary.")
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/me/phones/:phone")
      .setPath(PhoneInPath)
      .addSuccess(Schema.Void)
      .addError(errorResponse(PhoneNotFound))
      .addError(errorResponse(ContactIsPrimary))
      .addError(errorResponse(LastVerifiedContact))
      .annotate(
        OpenApi.Description,
        "Removes a phone number. The account's last verified email or phone cannot go (409 last_verified_contact), " +
          "nor the primary while another verified phone remains (409 contact_is_primary)."
      )
  )
  .addError(errorResponse(CarbonOnly))
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Phones")
  .annotate(OpenApi.Description, "The signed-in Carbon's phone numbers. Carbon only: a Silicon is 403 carbon_only.")
{}
