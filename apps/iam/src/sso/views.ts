import type { SsoConnection, SsoEntitlement, SsoState } from "./Sso.ts"
import { ssoLoginUrl, ssoWebhookUrl } from "./policy.ts"
import type { ConnectionRow, EntitlementRow } from "./SsoRepo.ts"

export const entitlementView = (row: EntitlementRow): SsoEntitlement => ({ ...row, granted_at: row.granted_at.toISOString() })

export const connectionView = (publicUrl: string, row: ConnectionRow): SsoConnection => ({
  id: row.id,
  organization_id: row.organization_id,
  protocol: "oidc",
  issuer: row.issuer,
  client_id: row.client_id,
  status: row.status,
  login_url: ssoLoginUrl(publicUrl, row.id),
  webhook_url: ssoWebhookUrl(publicUrl, row.id),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** The organization's SSO as a whole: its entitlement and connections, and the best status among them. */
export const stateView = (entitlement: SsoEntitlement | null, connections: ReadonlyArray<SsoConnection>): SsoState => {
  const has = (status: SsoConnection["status"]) => connections.some((connection) => connection.status === status)
  const state = entitlement === null
    ? "not_entitled"
    : has("active")
    ? "active"
    : has("pending")
    ? "pending"
    : connections.length > 0
    ? "inactive"
    : "not_configured"
  return { state, entitlement, connections }
}
