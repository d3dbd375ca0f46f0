import { Data, Schema } from "effect"
import { DetailName } from "../apps/signinConfig/fields.ts"
import { AuthorizeRequest } from "./AuthorizeRequest.ts"

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

/** A code sent for a contact detail added on a details page. */
export const DetailCode = Schema.extend(SentCode, Schema.Struct({ field: ContactField }))
export type DetailCode = typeof DetailCode.Type

export const PageField = Schema.Struct({ field: DetailName, mode: Schema.Literal("required", "optional") })
export type PageField = typeof PageField.Type

export const DetailPage = Schema.Struct({ id: Schema.Literal("required", "optional"), fields: Schema.Array(PageField) })
export type DetailPage = typeof DetailPage.Type

export const FlowError = Schema.Struct({ code: Schema.String, message: Schema.String, hint: Schema.optional(Schema.String) })
export type FlowError = typeof FlowError.Type

/** The sign-up session a proven address (or a provider's identity) started, with what the form shows. */
export const SignupStarted = Schema.Struct({
  id: Schema.String,
  channel: ContactField,
  destination: Schema.String,
  expires_at: Schema.String,
  /** A sign-up from an identity provider: its name, and the photo and display name it offered. */
  provider: Schema.NullOr(Schema.String),
  provider_pfp_url: Schema.NullOr(Schema.String),
  display_name: Schema.NullOr(Schema.String),
  /** The photo uploaded during this sign-up, which the new account takes (absent in flows stored before sign-up photos). */
  pfp_url: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** An app imported this address: the sign-up finishes that import (absent in flows stored before imports). */
  imported: Schema.optionalWith(
    Schema.NullOr(Schema.Struct({ account_uuid: Schema.String, app_id: Schema.String, name: Schema.String })),
    { default: () => null }
  )
})
export type SignupStarted = typeof SignupStarted.Type

/** The account this flow signs in, once it authenticated or continued. */
export const SignedInAccount = Schema.Struct({
  uuid: Schema.String,
  /** When it authenticated (OpenID Connect auth_time), RFC 3339. */
  auth_time: Schema.String
})
export type SignedInAccount = typeof SignedInAccount.Type

/**
 * The error a refused provider round trip left at choose_method. `continue` does not clear it, so
 * the details and review steps reached from there still show it, as they always have.
 */
const LeftError = Schema.NullOr(FlowError)

/** Where the flow is, and what that step has: the tag is the step's name in FlowView. */
export const FlowStep = Schema.Union(
  Schema.TaggedStruct("choose_method", { error: LeftError }),
  Schema.TaggedStruct("verify_code", { challenge: SentCode }),
  Schema.TaggedStruct("signup", { signup: SignupStarted }),
  Schema.TaggedStruct("details", {
    account: SignedInAccount,
    /** The pages before, at and after the one shown. */
    previous_pages: Schema.Array(DetailPage),
    page: DetailPage,
    next_pages: Schema.Array(DetailPage),
    /** Optional details ticked so far. */
    shared: Schema.Array(DetailName),
    detail_challenge: Schema.NullOr(DetailCode),
    /** The review page follows the last details page. */
    review: Schema.Boolean,
    error: LeftError
  }),
  Schema.TaggedStruct("review", {
    account: SignedInAccount,
    pages: Schema.NonEmptyArray(DetailPage),
    shared: Schema.Array(DetailName),
    error: LeftError
  }),
  Schema.TaggedStruct("complete", { redirect_to: Schema.String, error: Schema.NullOr(FlowError) }),
  Schema.TaggedStruct("failed", { redirect_to: Schema.String, error: FlowError })
)
export type FlowStep = typeof FlowStep.Type
export type StepName = FlowStep["_tag"]
export type StepOf<Name extends StepName> = Data.TaggedEnum.Value<FlowStep, Name>

/** Constructors and matchers of the steps: `Step.verify_code({ challenge })`. */
export const Step = Data.taggedEnum<FlowStep>()

/** Everything a flow remembers between moves (the `state` column): what every step shares, and its step. */
export const FlowState = Schema.Struct({
  request: AuthorizeRequest,
  /** IANA name the browser sent, the default of a sign-up's timezone. */
  timezone: Schema.NullOr(Schema.String),
  /**
   * The browser's signed-in account when the flow began (the "continue as" offer), until switched
   * away; the account a code or a provider signs in becomes it too.
   */
  session_account_uuid: Schema.NullOr(Schema.String),
  step: FlowStep
})
export type FlowState = typeof FlowState.Type

export const isFinished = (step: FlowStep): step is StepOf<"complete" | "failed"> =>
  step._tag === "complete" || step._tag === "failed"

/** The step is one of these. */
export const isOneOf = <Name extends StepName>(step: FlowStep, names: ReadonlyArray<Name>): step is StepOf<Name> =>
  names.some((name) => name === step._tag)
