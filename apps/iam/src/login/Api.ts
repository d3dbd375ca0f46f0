import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountsUnavailable,
  EmailInUse,
  IdReserved,
  IdTaken,
  InvalidId,
  PhoneInUse
} from "@platform/accounts-identity-api"
import { errorResponse, RateLimited, strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { ChallengePath, CodeAnswer, CodeChallengeView, CodeRefusals } from "../challenges/CodeChallenge.ts"
import { PhoneVerificationUnavailable } from "../phone-verification/errors.ts"
import { CredentialPair } from "../sessions/CredentialPair.ts"
import { IdentityExists, IdentityNotFound, SignupAlreadyCompleted, SignupExpired, SignupNotFound } from "./errors.ts"

const email = Schema.String.pipe(Schema.maxLength(320)).annotations({ description: "A verified email address" })
const phoneNumber = Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "A verified phone number in E.164" })

export const LoginRequest = strict(Schema.Struct({
  email: Schema.optional(email),
  phone_number: Schema.optional(phoneNumber),
  carbon_id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "c:<handle>: the code goes to both verified channels" })
  )
})).annotations({ identifier: "LoginRequest", description: "Exactly one of email, phone_number, carbon_id" })

export const SignupRequest = strict(Schema.Struct({
  email: Schema.optional(email),
  phone_number: Schema.optional(phoneNumber)
})).annotations({ identifier: "SignupRequest", description: "Exactly one of email, phone_number" })

export const SignupSession = Schema.Struct({
  signup_id: Schema.String.annotations({ description: "Secret: completes the signup within 48 hours" }),
  channel: Schema.Literal("email", "phone"),
  destination: Schema.String.annotations({ description: "The verified email or phone the Carbon will have" }),
  expires_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "SignupSession" })

export const SignupCompletion = strict(Schema.Struct({
  display_name: Schema.String.pipe(Schema.maxLength(100)),
  id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "The c: id wanted; absent: one is made from the display name" })
  )
})).annotations({ identifier: "SignupCompletion" })

const COOKIE_NOTE = "Sets the browser session cookie iam_session (host-only, HttpOnly, SameSite=Lax, signed, bound to the session)."

export class LoginApi extends HttpApiGroup.make("login")
  .add(
    HttpApiEndpoint.post("createChallenge", "/api/v1/login/challenges")
      .setPayload(LoginRequest)
      .addSuccess(CodeChallengeView, { status: 201 })
      .addError(errorResponse(IdentityNotFound))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(AccountsUnavailable))
      .addError(errorResponse(PhoneVerificationUnavailable))
      .annotate(
        OpenApi.Description,
        "Sends a six-digit code (10 minutes) to the email or phone named, or for a carbon_id to both of that Carbon's " +
          "verified channels (either code answers). 404 identity_not_found when no active Carbon owns what was named " +
          "(a deliberate disclosure, spec 2). A new challenge for the same Carbon replaces the last one; wrong codes " +
          "count per Carbon across them."
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/api/v1/login/challenges/:session_id/verify")
      .setPath(ChallengePath)
      .setPayload(CodeAnswer)
      .addSuccess(CredentialPair)
      .addError(errorResponse(IdentityNotFound))
      .addError(errorResponse(AccountsUnavailable))
      .addError(CodeRefusals)
      .annotate(
        OpenApi.Description,
        "A right code opens an IAM session and answers its credential pair. Ten wrong codes in a row start a " +
          `60-second cooldown (423 verification_locked), then ten attempts anew. ${COOKIE_NOTE}`
      )
  )
  .annotate(OpenApi.Title, "Login")
{}

export class SignupApi extends HttpApiGroup.make("signup")
  .add(
    HttpApiEndpoint.post("createChallenge", "/api/v1/signup/challenges")
      .setPayload(SignupRequest)
      .addSuccess(CodeChallengeView, { status: 201 })
      .addError(errorResponse(IdentityExists))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(AccountsUnavailable))
      .addError(errorResponse(PhoneVerificationUnavailable))
      .annotate(
        OpenApi.Description,
        "A person without an account proves an email or phone: a code is sent to it. 409 identity_exists when an " +
          "active Carbon already has it verified (log in instead)."
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/api/v1/signup/challenges/:session_id/verify")
      .setPath(ChallengePath)
      .setPayload(CodeAnswer)
      .addSuccess(SignupSession)
      .addError(CodeRefusals)
      .annotate(OpenApi.Description, "A right code opens a 48-hour signup session for the proven address.")
  )
  .add(
    HttpApiEndpoint.post("complete", "/api/v1/signup/:signup_id/complete")
      .setPath(Schema.Struct({ signup_id: Schema.String.pipe(Schema.maxLength(100)) }))
      .setPayload(SignupCompletion)
      .addSuccess(CredentialPair, { status: 201 })
      .addError(errorResponse(SignupNotFound))
      .addError(errorResponse(SignupExpired))
      .addError(errorResponse(SignupAlreadyCompleted))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(EmailInUse))
      .addError(errorResponse(PhoneInUse))
      .addError(errorResponse(AccountsUnavailable))
      .annotate(
        OpenApi.Description,
        "Creates the Carbon in accounts with the proven address (verified and primary), the display name and the id " +
          `wanted, and logs it in: the credential pair of a new IAM session. ${COOKIE_NOTE}`
      )
  )
  .annotate(OpenApi.Title, "Signup")
{}
