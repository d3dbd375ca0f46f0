import type { PublicApplication, RegisteredApplication } from "./Application.ts"
import type { ApplicationRow, PendingScopeRow } from "./ApplicationsRepo.ts"

export const publicApplication = (row: ApplicationRow): PublicApplication => ({
  app_id: row.app_id,
  name: row.name,
  app_scope: row.app_scope,
  webhook_scope: row.webhook_scope,
  consent_required: row.consent_required,
  scope_version: row.scope_version
})

export const registeredApplication = (row: ApplicationRow, pending: ReadonlyArray<PendingScopeRow>): RegisteredApplication => ({
  ...publicApplication(row),
  pending_scopes: pending.map((request) => ({ scope: request.scope, requested_at: request.requested_at.toISOString() })),
  callback_urls: row.callback_urls,
  owner_uuid: row.owner_uuid,
  organization_id: row.organization_id,
  created_at: row.created_at.toISOString(),
  secret_rotated_at: row.secret_rotated_at.toISOString()
})
