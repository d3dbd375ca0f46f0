import { Schema } from "effect"
import { DetailName, IdpAPrompt, IdpMode, LOGO_HEIGHT_PX, Method, RADIUS_PX, Theme, WholePx } from "./fields.ts"
import { Palette } from "./palette.ts"

/**
 * An app's signin_config as stored and returned (spec 1, App record). Value
 * rules (sizes, ranges, contrast, byo requirements) are checked by
 * validateSigninConfig so that every problem comes back at once by field.
 */

export const Methods = Schema.Struct({
  email: Schema.Boolean,
  phone: Schema.Boolean,
  idp_a: Schema.Boolean,
  idp_b: Schema.Boolean
})

export const IdpA = Schema.Struct({
  mode: IdpMode,
  client_id: Schema.NullOr(Schema.String),
  prompt: IdpAPrompt,
  hosted_domain: Schema.NullOr(Schema.String),
  client_secret_set: Schema.Boolean
})

export const IdpB = Schema.Struct({
  mode: IdpMode,
  services_id: Schema.NullOr(Schema.String),
  team_id: Schema.NullOr(Schema.String),
  key_id: Schema.NullOr(Schema.String),
  private_key_set: Schema.Boolean
})

export const Branding = Schema.Struct({
  theme: Theme,
  font_family: Schema.NullOr(Schema.String),
  radius: WholePx(RADIUS_PX, "corner radius"),
  logo_height: WholePx(LOGO_HEIGHT_PX, "logo height"),
  light: Palette,
  dark: Palette
})

export const Copy = Schema.Struct({
  title: Schema.NullOr(Schema.String).annotations({ description: "at most 80 characters" }),
  subtitle: Schema.NullOr(Schema.String).annotations({ description: "at most 200 characters" }),
  terms_url: Schema.NullOr(Schema.String),
  privacy_url: Schema.NullOr(Schema.String),
  support_email: Schema.NullOr(Schema.String)
})

export const SigninConfig = Schema.Struct({
  methods: Methods,
  method_order: Schema.Array(Method),
  idp_a: IdpA,
  idp_b: IdpB,
  redirect_uris: Schema.Array(Schema.String).annotations({ description: "at most 50" }),
  allowed_origins: Schema.Array(Schema.String).annotations({ description: "at most 50" }),
  allowed_email_domains: Schema.Array(Schema.String).annotations({ description: "at most 100" }),
  required_fields: Schema.Array(DetailName),
  optional_fields: Schema.Array(DetailName),
  allow_signup: Schema.Boolean,
  remember_browser: Schema.Boolean,
  branding: Branding,
  copy: Copy
}).annotations({ identifier: "SigninConfig" })
export type SigninConfig = typeof SigninConfig.Type
export type Branding = typeof Branding.Type
export type Copy = typeof Copy.Type
