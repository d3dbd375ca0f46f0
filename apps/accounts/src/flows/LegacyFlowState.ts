import { Either, Schema } from "effect"
import { DetailName } from "../apps/signinConfig/fields.ts"
import { AuthorizeRequest } from "./AuthorizeRequest.ts"
import { ContactField, DetailCode, DetailPage, FlowError, type FlowState, SentCode, Step } from "./FlowState.ts"

/**
 * The flat shape flows were stored in before the step became a tagged union, frozen as it was:
 * the step lived only in the `step` column and every step's fields sat side by side, null when
 * not reached. Flows live a day at most; this reads the ones stored before the change.
 */
export const LegacyStepName = Schema.Literal("choose_method", "verify_code", "signup", "details", "review", "complete", "failed")
export type LegacyStepName = typeof LegacyStepName.Type

export const LegacyFlowState = Schema.Struct({
  request: AuthorizeRequest,
  timezone: Schema.NullOr(Schema.String),
  session_account_uuid: Schema.NullOr(Schema.String),
  account_uuid: Schema.NullOr(Schema.String),
  auth_time: Schema.NullOr(Schema.String),
  challenge: Schema.NullOr(SentCode),
  signup: Schema.NullOr(Schema.Struct({
    id: Schema.String,
    channel: ContactField,
    destination: Schema.String,
    expires_at: Schema.String,
    provider: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    provider_pfp_url: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    display_name: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
  })),
  pages: Schema.Array(DetailPage),
  page_index: Schema.Number,
  shared: Schema.Array(DetailName),
  detail_challenge: Schema.NullOr(DetailCode),
  review: Schema.Boolean,
  redirect_to: Schema.NullOr(Schema.String),
  error: Schema.NullOr(FlowError)
})
export type LegacyFlowState = typeof LegacyFlowState.Type

const missing = (step: LegacyStepName, field: string) => Either.left(`a stored flow at ${step} has no ${field}`)

/** The flat state at `step` as the tagged state, or why it cannot be one (a field its step needs is null). */
export const fromLegacy = (step: LegacyStepName, flat: LegacyFlowState): Either.Either<FlowState, string> => {
  const shared = { request: flat.request, timezone: flat.timezone, session_account_uuid: flat.session_account_uuid }
  const at = (next: FlowState["step"]): Either.Either<FlowState, string> => Either.right({ ...shared, step: next })
  const account = flat.account_uuid !== null && flat.auth_time !== null
    ? { uuid: flat.account_uuid, auth_time: flat.auth_time }
    : null
  switch (step) {
    case "choose_method":
      return at(Step.choose_method({ error: flat.error }))
    case "verify_code":
      return flat.challenge === null ? missing(step, "challenge") : at(Step.verify_code({ challenge: flat.challenge }))
    case "signup":
      return flat.signup === null ? missing(step, "signup") : at(Step.signup({ signup: { ...flat.signup, pfp_url: null, imported: null } }))
    case "details": {
      const page = flat.pages[flat.page_index]
      if (account === null) return missing(step, "account")
      if (page === undefined) return missing(step, `page ${flat.page_index}`)
      return at(Step.details({
        account,
        previous_pages: flat.pages.slice(0, flat.page_index),
        page,
        next_pages: flat.pages.slice(flat.page_index + 1),
        shared: flat.shared,
        detail_challenge: flat.detail_challenge,
        review: flat.review,
        error: flat.error
      }))
    }
    case "review": {
      const [first, ...rest] = flat.pages
      if (account === null) return missing(step, "account")
      if (first === undefined) return missing(step, "pages")
      return at(Step.review({ account, pages: [first, ...rest], shared: flat.shared, error: flat.error }))
    }
    case "complete":
      return flat.redirect_to === null
        ? missing(step, "redirect_to")
        : at(Step.complete({ redirect_to: flat.redirect_to, error: flat.error }))
    case "failed":
      if (flat.redirect_to === null) return missing(step, "redirect_to")
      return flat.error === null ? missing(step, "error") : at(Step.failed({ redirect_to: flat.redirect_to, error: flat.error }))
  }
}
