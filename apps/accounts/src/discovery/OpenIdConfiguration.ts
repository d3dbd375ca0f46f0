import { Schema } from "effect"

export const OpenIdConfiguration = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  userinfo_endpoint: Schema.String,
  jwks_uri: Schema.String,
  revocation_endpoint: Schema.String,
  introspection_endpoint: Schema.String,
  device_authorization_endpoint: Schema.String,
  response_types_supported: Schema.Array(Schema.String),
  response_modes_supported: Schema.Array(Schema.String),
  grant_types_supported: Schema.Array(Schema.String),
  subject_types_supported: Schema.Array(Schema.String),
  id_token_signing_alg_values_supported: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  claims_supported: Schema.Array(Schema.String),
  token_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  introspection_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  revocation_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  code_challenge_methods_supported: Schema.Array(Schema.String),
  prompt_values_supported: Schema.Array(Schema.String),
  claims_parameter_supported: Schema.Boolean,
  request_parameter_supported: Schema.Boolean,
  request_uri_parameter_supported: Schema.Boolean,
  authorization_response_iss_parameter_supported: Schema.Boolean.annotations({ description: "RFC 9207" })
}).annotations({ identifier: "OpenIdConfiguration", description: "OpenID Provider Metadata (OpenID Connect Discovery 1.0)" })

/** Grants the token endpoint serves. */
export const GRANT_TYPES = [
  "authorization_code",
  "refresh_token",
  "urn:ietf:params:oauth:grant-type:device_code",
  "urn:ietf:params:oauth:grant-type:jwt-bearer",
  "urn:ietf:params:oauth:grant-type:token-exchange",
  "urn:accounts:params:oauth:grant-type:short-lived-token"
] as const

/** The scopes and prompts /authorize takes (flows/AuthorizeRequest.ts checks against these same lists). */
export const SCOPES = ["openid", "profile", "email", "phone", "dob", "timezone", "offline_access"] as const
export const PROMPTS = ["none", "login", "consent", "select_account"] as const

/** Claims an id_token or userinfo answer may carry: the registered JWT claims, the account fields by scope and their OpenID names. */
export const CLAIMS = [
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "azp",
  "at_hash",
  "uuid",
  "membership_id",
  "kind",
  "id",
  "display_name",
  "pfp_url",
  "updated_at",
  "version",
  "custodian",
  "email",
  "email_verified",
  "phone",
  "phone_verified",
  "dob",
  "timezone",
  "name",
  "picture",
  "phone_number",
  "phone_number_verified",
  "birthdate",
  "zoneinfo"
] as const

/** The discovery document of spec 1's discovery row; the issuer is the public origin. */
export const openIdConfiguration = (issuer: string): typeof OpenIdConfiguration.Type => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/v1/oauth/token`,
  userinfo_endpoint: `${issuer}/v1/userinfo`,
  jwks_uri: `${issuer}/.well-known/jwks.json`,
  revocation_endpoint: `${issuer}/v1/oauth/revoke`,
  introspection_endpoint: `${issuer}/v1/oauth/introspect`,
  device_authorization_endpoint: `${issuer}/v1/device/authorize`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: GRANT_TYPES,
  subject_types_supported: ["public"],
  // Id tokens: EdDSA (Ed25519 key) by default, RS256 (RSA key) for an app that chose it (docs/decisions.md).
  id_token_signing_alg_values_supported: ["EdDSA", "RS256"],
  scopes_supported: SCOPES,
  claims_supported: CLAIMS,
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
  introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
  code_challenge_methods_supported: ["S256", "plain"],
  prompt_values_supported: PROMPTS,
  claims_parameter_supported: false,
  request_parameter_supported: false,
  request_uri_parameter_supported: false,
  authorization_response_iss_parameter_supported: true
})
