import { Schema } from "effect"
import { AccountSummary } from "../accounts/AccountSummary.ts"
import type { AppRow } from "../apps/AppRecord.ts"
import { Branding, Copy, type SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import { DetailName, Method } from "../apps/signinConfig/fields.ts"
import { Prompt } from "./AuthorizeRequest.ts"
import { ContactField, FlowError } from "./FlowState.ts"

/** The steps' names (the tags of FlowState's step). */
const Step = Schema.Literal("choose_method", "verify_code", "signup", "details", "review", "complete", "failed")

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

const Challenge = Schema.Struct({
  channel: ContactField,
  destination: Schema.String.annotations({ description: "masked" }),
  expires_at: Timestamp,
  resend_available_at: Timestamp
})

export const DetailField = Schema.Struct({
  field: DetailName,
  mode: Schema.Literal("required", "optional"),
  label: Schema.String,
  value: Schema.NullOr(Schema.String).annotations({ description: "contact values masked" }),
  missing: Schema.Boolean,
  shared: Schema.Boolean,
  previously_granted: Schema.Boolean
})

/** The hosted flow as the account site sees it (spec 1, Hosted flow view), field for field. */
export const FlowView = Schema.Struct({
  id: Schema.String,
  step: Step,
  expires_at: Timestamp,
  app: Schema.Struct({
    app_id: Schema.String,
    name: Schema.String,
    logo_url: Schema.NullOr(Schema.String),
    logo_dark_url: Schema.NullOr(Schema.String),
    homepage_url: Schema.NullOr(Schema.String),
    branding: Branding,
    copy: Copy,
    first_party: Schema.Boolean
  }),
  methods: Schema.Array(Method).annotations({
    description: "enabled and offered here (a provider needs a client), in button order"
  }),
  signed_in_as: Schema.NullOr(AccountSummary),
  challenge: Schema.NullOr(Challenge).annotations({ description: "at verify_code" }),
  signup: Schema.NullOr(Schema.Struct({
    display_name: Schema.NullOr(Schema.String),
    id: Schema.NullOr(Schema.String),
    timezone: Schema.String,
    dob: Schema.NullOr(Schema.String),
    pfp_url: Schema.NullOr(Schema.String).annotations({
      description: "the photo uploaded for the account to be made (POST .../signup/photo); null until one is"
    }),
    email: Schema.NullOr(Schema.String).annotations({ description: "masked" }),
    phone: Schema.NullOr(Schema.String).annotations({ description: "masked" }),
    provider: Schema.NullOr(Schema.String),
    provider_pfp_url: Schema.NullOr(Schema.String),
    finishing_import: Schema.Boolean,
    imported_by: Schema.NullOr(Schema.Struct({ app_id: Schema.String, name: Schema.String })),
    expires_at: Timestamp
  })),
  details: Schema.NullOr(Schema.Struct({
    index: Schema.Number,
    count: Schema.Number,
    id: Schema.String,
    title: Schema.String,
    subtitle: Schema.NullOr(Schema.String),
    continue_label: Schema.String,
    layout: Schema.Literal("list"),
    fields: Schema.Array(DetailField),
    challenge: Schema.NullOr(Schema.extend(Challenge, Schema.Struct({ field: ContactField }))),
    review_next: Schema.Boolean
  })),
  review: Schema.NullOr(Schema.Struct({
    fields: Schema.Array(Schema.Struct({
      field: DetailName,
      mode: Schema.Literal("required", "optional"),
      label: Schema.String,
      value: Schema.NullOr(Schema.String),
      shared: Schema.Boolean
    }))
  })),
  redirect_to: Schema.NullOr(Schema.String).annotations({ description: "set once complete or failed" }),
  error: Schema.NullOr(FlowError),
  prompt: Schema.NullOr(Schema.String).annotations({ description: `space-separated: ${Prompt.literals.join(", ")}` }),
  intent: Schema.Literal("signin", "signup"),
  method_hint: Schema.NullOr(Method)
}).annotations({ identifier: "FlowView" })
export type FlowView = typeof FlowView.Type

export const FlowResponse = Schema.Struct({ flow: FlowView }).annotations({ identifier: "FlowResponse" })

export const ProviderStartResponse = Schema.Struct({
  flow: FlowView,
  authorization_url: Schema.String.annotations({ description: "where the browser goes next: the identity provider" })
}).annotations({ identifier: "FlowProviderStart" })

/** FlowView's `app`: the app as its sign-in page shows it, with the branding and copy of `config`. */
export const flowAppOf = (app: AppRow, config: SigninConfig): FlowView["app"] => ({
  app_id: app.app_id,
  name: app.name,
  logo_url: app.logo_url,
  logo_dark_url: app.logo_dark_url,
  homepage_url: app.homepage_url,
  branding: config.branding,
  copy: config.copy,
  first_party: app.source === "first_party"
})
