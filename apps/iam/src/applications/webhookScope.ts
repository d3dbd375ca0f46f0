import { Schema } from "effect"

/**
 * The IAM webhook events an application may subscribe to (spec 2, Events, with their .v1 suffix). Not here:
 * raw SSO events, Silicon webhook configuration and credential-management requests, which applications never receive.
 */
export const APPLICATION_EVENT_TYPES = [
  "carbon.updated.v1",
  "organization.created.v1",
  "organization.updated.v1",
  "organization.tag_created.v1",
  "organization.tag_updated.v1",
  "organization.ownership_transferred.v1",
  "organization.membership.created.v1",
  "organization.membership.reactivated.v1",
  "organization.membership.removed.v1",
  "organization.membership.updated.v1",
  "organization.membership.profile_updated.v1",
  "organization.membership.authorization_updated.v1",
  "organization.silicon.created.v1",
  "organization.silicon.removed.v1",
  "organization.silicon.updated.v1",
  "organization.admin.promoted.v1",
  "organization.admin.demoted.v1",
  "organization.trust.default_updated.v1",
  "organization.trust.rule_created.v1",
  "organization.trust.rule_updated.v1",
  "organization.trust.rule_archived.v1",
  "organization.invitation.created.v1",
  "organization.invitation.accepted.v1",
  "organization.invitation.revoked.v1",
  "organization.role_change.requested.v1",
  "organization.tag_change.requested.v1",
  "organization.approval.decided.v1",
  "organization.silicon.credential_rotated.v1"
] as const
export const ApplicationEventType = Schema.Literal(...APPLICATION_EVENT_TYPES)
export type ApplicationEventType = typeof ApplicationEventType.Type

export const isApplicationEventType = (value: string): value is ApplicationEventType =>
  (APPLICATION_EVENT_TYPES as ReadonlyArray<string>).includes(value)
