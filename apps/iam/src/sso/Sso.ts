import { Schema } from "effect"

/** What a platform admin granted an organization. */
export const SsoEntitlement = Schema.Struct({
  organization_id: Schema.String,
  max_connections: Schema.Number.annotations({ description: "How many connections (pending and active) the organization may hold" }),
  granted_by: Schema.String.annotations({ description: "The platform admin's uuid" }),
  granted_at: Schema.String
}).annotations({ identifier: "SsoEntitlement" })
export type SsoEntitlement = typeof SsoEntitlement.Type

export const SsoConnectionStatus = Schema.Literal("pending", "active", "inactive")
export type SsoConnectionStatus = typeof SsoConnectionStatus.Type

/** An OpenID Connect connection, without its secrets. */
export const SsoConnection = Schema.Struct({
  id: Schema.String.annotations({ description: "ssc_ and 22 base64url characters" }),
  organization_id: Schema.String,
  protocol: Schema.Literal("oidc"),
  issuer: Schema.String,
  client_id: Schema.String,
  status: SsoConnectionStatus,
  login_url: Schema.String.annotations({ description: "Where members start signing in through it (a browser navigation)" }),
  webhook_url: Schema.String.annotations({ description: "Where the identity provider posts its signed events" }),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "SsoConnection" })
export type SsoConnection = typeof SsoConnection.Type

/** An organization's SSO state as a whole. */
export const SsoState = Schema.Struct({
  state: Schema.Literal("not_entitled", "not_configured", "pending", "active", "inactive").annotations({
    description: "not_entitled: no entitlement; not_configured: entitled, no connection yet; otherwise the best connection status"
  }),
  entitlement: Schema.NullOr(SsoEntitlement),
  connections: Schema.Array(SsoConnection)
}).annotations({ identifier: "SsoState" })
export type SsoState = typeof SsoState.Type
