import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, lenient, RateLimited } from "@platform/http"
import { Schema } from "effect"
import {
  ChallengeNotFound,
  CodeAlreadyUsed,
  CodeExpired,
  InvalidCode,
  VerificationLocked
} from "@platform/verification-codes"
import { AccountNotFound } from "../accounts/errors.ts"
import { TokenResponse } from "../oauth/TokenResponse.ts"

export const CliLoginStart = lenient(Schema.Struct({
  email: Schema.optional(Schema.String.pipe(Schema.maxLength(320))),
  phone: Schema.optional(Schema.String.pipe(Schema.maxLength(32)).annotations({ description: "E.164, e.g. +447911123456, or a national number with country" })),
  country: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)).annotations({
      description: "ISO 3166-1 alpha-2: a phone without its + country code is read as a national number of this country and turned into E.164"
    })
  )
})).annotations({ identifier: "CliLoginStart" })

export const CliLoginChallenge = Schema.Struct({
  challenge_id: Schema.String,
  destination: Schema.String.annotations({ description: "Where the code went, masked" }),
  expires_at: Schema.String
}).annotations({ identifier: "CliLoginChallenge" })

export const CliLoginVerify = lenient(Schema.Struct({
  challenge_id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  code: Schema.String.pipe(Schema.pattern(/^\d{6}$/, { message: () => "must be the 6 digits of the code" })),
  client_label: Schema.optional(Schema.String.annotations({ description: "Names this sign-in; cut at 100 characters" }))
})).annotations({ identifier: "CliLoginVerify" })

export class CliLoginApi extends HttpApiGroup.make("cliLogin")
  .add(
    HttpApiEndpoint.post("start", "/v1/cli/login/start")
      .setPayload(CliLoginStart)
      .addSuccess(CliLoginChallenge)
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Sends a six-digit code to an email address or phone. Every well-formed address gets the same answer, whether or not an account uses it. 60 per 10 minutes per IP; 10 codes per 10 minutes per address."
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/v1/cli/login/verify")
      .setPayload(CliLoginVerify)
      .addSuccess(TokenResponse)
      .addError(errorResponse(InvalidCode))
      .addError(errorResponse(CodeExpired))
      .addError(errorResponse(CodeAlreadyUsed))
      .addError(errorResponse(ChallengeNotFound))
      .addError(errorResponse(VerificationLocked))
      .addError(errorResponse(AccountNotFound))
      .annotate(
        OpenApi.Description,
        "Exchanges the code for a first-party Token response. Only the holder of the address learns, with a right code, that no account uses it (404 account_not_found)."
      )
  )
  .annotate(OpenApi.Title, "Terminal sign-in")
{}
