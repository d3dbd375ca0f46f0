import { Schema } from "effect"
import { DetailName } from "../apps/signinConfig/fields.ts"
import { AuthorizeRequest } from "./AuthorizeRequest.ts"

export const FlowStep = Schema.Literal("choose_method", "verify_code", "signup", "details", "review", "complete", "failed")
export type FlowStep = typeof FlowStep.Type

export const ContactField = Schema.Literal("email", "phone")
export type ContactField = typeof ContactField.Type

/** A code sent during the flow; `destination` normalized and unmasked (it is masked in the view). */
export const SentCode = Schema.Struct({
  challenge_id: Schema.String,
  channel: ContactField,
  destination: Schema.String,
  expires_at: Schema.String,
  resend_available_at: Schema.String
})
export type SentCode = typeof SentCode.Type

export const PageField = Schema.Struct({ field: DetailName, mode: Schema.Literal("required", "optional") })
export type PageField = typeof PageField.Type

export const DetailPage = Schema.Struct({ id: Schema.Literal("required", "optional"), fields: Schema.Array(PageField) })
export type DetailPage = typeof DetailPage.Type

export const FlowError = Schema.Struct({ code: Schema.String, message: Schema.String, hint: Schema.optional(Schema.String) })
export type FlowError = typeof FlowError.Type

/** Everything a flow remembers between moves (the `state` column). */
export const FlowState = Schema.Struct({
  request: AuthorizeRequest,
  /** IANA name the browser sent, the default of a sign-up's timezone. */
  timezone: Schema.NullOr(Schema.String),
  /** The browser's signed-in account when the flow began (the "continue as" offer), until switched away. */
  session_account_uuid: Schema.NullOr(Schema.String),
  /** The account this flow signs in, once it authenticated or continued. */
  account_uuid: Schema.NullOr(Schema.String),
  /** When that account authenticated (OpenID Connect auth_time), RFC 3339. */
  auth_time: Schema.NullOr(Schema.String),
  challenge: Schema.NullOr(SentCode),
  signup: Schema.NullOr(Schema.Struct({
    id: Schema.String,
    channel: ContactField,
    destination: Schema.String,
    expires_at: Schema.String,
    /** A sign-up from an identity provider: its name, and the photo and display name it offered. */
    provider: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    provider_pfp_url: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    display_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
  })),
  pages: Schema.Array(DetailPage),
  page_index: Schema.Number,
  /** Optional details ticked so far. */
  shared: Schema.Array(DetailName),
  /** A code sent for a detail added on a details page. */
  detail_challenge: Schema.NullOr(Schema.extend(SentCode, Schema.Struct({ field: ContactField }))),
  review: Schema.Boolean,
  redirect_to: Schema.NullOr(Schema.String),
  error: Schema.NullOr(FlowError)
})
export type FlowState = typeof FlowState.Type

export const isFinished = (step: FlowStep): boolean => step === "complete" || step === "failed"
