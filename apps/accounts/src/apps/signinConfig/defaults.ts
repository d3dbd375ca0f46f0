import { defaultDarkPalette, defaultLightPalette } from "./palette.ts"
import type { SigninConfig } from "./SigninConfig.ts"

/** The signin_config of a new app, and what `null` resets a field to. */
export const defaultSigninConfig: SigninConfig = {
  methods: { email: true, phone: false, idp_a: false, idp_b: false },
  method_order: ["idp_a", "idp_b", "email", "phone"],
  idp_a: { mode: "managed", client_id: null, prompt: "select_account", hosted_domain: null, client_secret_set: false },
  idp_b: { mode: "managed", services_id: null, team_id: null, key_id: null, private_key_set: false },
  redirect_uris: [],
  allowed_origins: [],
  allowed_email_domains: [],
  required_fields: [],
  optional_fields: [],
  allow_signup: true,
  remember_browser: true,
  branding: {
    theme: "auto",
    font_family: null,
    radius: 8,
    logo_height: 40,
    light: defaultLightPalette,
    dark: defaultDarkPalette
  },
  copy: { title: null, subtitle: null, terms_url: null, privacy_url: null, support_email: null }
}
