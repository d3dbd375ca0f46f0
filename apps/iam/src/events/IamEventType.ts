import { Schema } from "effect"

/**
 * Spec 2, Events: every IAM event type, with its `.v1` suffix. Writers name one of these; the
 * webhook delivery (issue 20) routes and projects by them.
 */
export const IamEventType = Schema.Literal(
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
  "organization.silicon.rotation_requested.v1",
  "organization.silicon.credential_rotated.v1",
  "organization.silicon.webhook.configured.v1",
  "organization.silicon.webhook.deleted.v1",
  "organization.silicon.webhook_subscription.updated.v1",
  "organization.silicon.webhook_subscription.deleted.v1",
  "sso.setup_link.created.v1",
  "sso.configuration.disabled.v1",
  "sso.entitlement.replaced.v1",
  "sso.connection.activated.v1",
  "sso.connection.deactivated.v1"
)
export type IamEventType = typeof IamEventType.Type
