import { strict } from "@platform/http"
import { Schema } from "effect"
import { DetailName, HexColor, IdpAPrompt, IdpMode, LOGO_HEIGHT_PX, Method, RADIUS_PX, Theme, WholePx } from "./fields.ts"
import { ClientSecret, IdpPrivateKey } from "./idpSecrets.ts"

/**
 * The body of PATCH /v1/apps/{app_id}/signin-config: every field optional,
 * null resets a field (or a whole object) to its default, unknown fields are
 * refused. Secrets are write-only; the *_set masks are accepted and ignored.
 */

// The null branch's own message replaces "Expected null, actual <value>", which would echo secrets back.
const ResetToDefault = Schema.Null.annotations({ message: () => "must be a valid value, or null to reset it to its default" })
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(Schema.Union(schema, ResetToDefault), { exact: true })
const object = <F extends Schema.Struct.Fields>(fields: F) => strict(Schema.Struct(fields))

const PalettePatch = object({
  background: opt(HexColor),
  surface: opt(HexColor),
  text: opt(HexColor),
  muted_text: opt(HexColor),
  primary: opt(HexColor),
  primary_text: opt(HexColor),
  border: opt(HexColor)
})

export const SigninConfigPatch = object({
  expected_version: Schema.optionalWith(Schema.Int.pipe(Schema.nonNegative()), { exact: true }),
  methods: opt(object({ email: opt(Schema.Boolean), phone: opt(Schema.Boolean), idp_a: opt(Schema.Boolean), idp_b: opt(Schema.Boolean) })),
  method_order: opt(Schema.Array(Method)),
  idp_a: opt(object({
    mode: opt(IdpMode),
    client_id: opt(Schema.String),
    prompt: opt(IdpAPrompt),
    hosted_domain: opt(Schema.String),
    client_secret: opt(ClientSecret),
    client_secret_set: opt(Schema.Boolean)
  })),
  idp_b: opt(object({
    mode: opt(IdpMode),
    services_id: opt(Schema.String),
    team_id: opt(Schema.String),
    key_id: opt(Schema.String),
    private_key: opt(IdpPrivateKey),
    private_key_set: opt(Schema.Boolean)
  })),
  redirect_uris: opt(Schema.Array(Schema.String)),
  allowed_origins: opt(Schema.Array(Schema.String)),
  allowed_email_domains: opt(Schema.Array(Schema.String)),
  required_fields: opt(Schema.Array(DetailName)),
  optional_fields: opt(Schema.Array(DetailName)),
  allow_signup: opt(Schema.Boolean),
  remember_browser: opt(Schema.Boolean),
  branding: opt(object({
    theme: opt(Theme),
    font_family: opt(Schema.String),
    radius: opt(WholePx(RADIUS_PX, "corner radius")),
    logo_height: opt(WholePx(LOGO_HEIGHT_PX, "logo height")),
    light: opt(PalettePatch),
    dark: opt(PalettePatch)
  })),
  copy: opt(object({
    title: opt(Schema.String),
    subtitle: opt(Schema.String),
    terms_url: opt(Schema.String),
    privacy_url: opt(Schema.String),
    support_email: opt(Schema.String)
  }))
}).annotations({ identifier: "SigninConfigPatch" })
export type SigninConfigPatch = typeof SigninConfigPatch.Type
