import { SqlClient } from "@effect/sql"
import { checkOutboundUrl } from "@platform/outbound"
import { randomToken, sha256Hex } from "@platform/crypto"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Duration, Effect, Either, Option } from "effect"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { IamConfig } from "../config.ts"
import { LIFETIMES } from "../lifetimes.ts"
import { OrganizationNotFound } from "../organizations/errors.ts"
import { OrganizationAccess } from "../organizations/OrganizationAccess.ts"
import { OrganizationEvents } from "../organizations/OrganizationEvents.ts"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.ts"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import {
  SsoConnectionLimit,
  SsoConnectionNotFound,
  SsoEntitlementNotFound,
  SsoNotEntitled,
  SsoSetupLinkExpired,
  SsoSetupLinkNotFound,
  SsoSetupLinkUsed
} from "./errors.ts"
import { ssoOutboundPolicy } from "./policy.ts"
import { relyingParty } from "./relyingParty.ts"
import type { SsoConnectionStatus } from "./Sso.ts"
import { type ConnectionRow, SsoRepo } from "./SsoRepo.ts"
import { connectionView, entitlementView, stateView } from "./views.ts"

export interface ProviderSettings {
  readonly issuer: string
  readonly client_id: string
  readonly client_secret: string
}

const notEntitled = () =>
  new SsoNotEntitled({ message: "This organization holds no SSO entitlement.", hint: "A platform admin grants it." })

const noConnection = () => new SsoConnectionNotFound({ message: "This organization has no SSO connection with this id." })

/**
 * An organization's SSO configuration: the platform admin's entitlement, the owner's or an admin's setup
 * links and connection changes (each with step-up), and the setup link's holder submitting the provider.
 * Every change locks the organization first and writes its `sso.*` event in the same transaction.
 */
export class SsoConfiguration extends Effect.Service<SsoConfiguration>()("iam/SsoConfiguration", {
  effect: Effect.gen(function*() {
    const config = yield* IamConfig
    const repo = yield* SsoRepo
    const organizations = yield* OrganizationsRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents
    const secrets = yield* SecretsAtRest
    const sql = yield* SqlClient.SqlClient
    const policy = ssoOutboundPolicy(config)
    const view = (row: ConnectionRow) => connectionView(config.publicUrl, row)

    const lockOrganization = (organizationId: string) =>
      Effect.flatMap(organizations.lock(organizationId), (exists) =>
        exists ? Effect.void : Effect.fail(new OrganizationNotFound({ message: "No organization has this id." })))

    const requireEntitlement = (organizationId: string) =>
      Effect.flatMap(repo.entitlement(organizationId), Option.match({ onNone: () => Effect.fail(notEntitled()), onSome: Effect.succeed }))

    /** Moves a connection to `status` and writes its event; nothing when it already is. */
    const setStatus = (row: ConnectionRow, status: SsoConnectionStatus, actorUuid: string | null, reason: string, at: Date) =>
      Effect.gen(function*() {
        if (row.status === status) return false
        yield* repo.setStatus(row.id, status, at)
        const changed = { ...row, status, updated_at: at }
        yield* events.publish(row.organization_id, actorUuid, status === "active" ? "sso.connection.activated.v1" : "sso.connection.deactivated.v1", () =>
          Effect.succeed({ changed: ["status"], current: { resource: view(changed) }, previous: row.status, reason }))
        return true
      })

    const deactivateAll = (organizationId: string, actorUuid: string, reason: string, at: Date) =>
      Effect.flatMap(repo.connectionsOf(organizationId), (rows) =>
        Effect.forEach(rows.filter((row) => row.status !== "inactive"), (row) =>
          Effect.as(setStatus(row, "inactive", actorUuid, reason, at), row.id)))

    const connectionOf = (organizationId: string, connectionId: string) =>
      Effect.flatMap(repo.connection(connectionId), (found) =>
        Option.isSome(found) && found.value.organization_id === organizationId ? Effect.succeed(found.value) : Effect.fail(noConnection()))

    const stateOf = (organizationId: string) =>
      Effect.gen(function*() {
        const entitlement = yield* repo.entitlement(organizationId)
        const connections = yield* repo.connectionsOf(organizationId)
        return stateView(Option.getOrNull(Option.map(entitlement, entitlementView)), connections.map(view))
      })

    /** The setup link a token names, while it is unused and in time (locked when run in a transaction). */
    const linkOf = (token: string, at: Date) =>
      Effect.gen(function*() {
        const found = yield* repo.lockSetupLink(sha256Hex(token))
        if (Option.isNone(found)) return yield* new SsoSetupLinkNotFound({ message: "No SSO setup link has this token." })
        if (found.value.used_at !== null) return yield* new SsoSetupLinkUsed({ message: "This SSO setup link was already used.", hint: "Ask the organization's admin for a new one." })
        if (found.value.expires_at <= at) return yield* new SsoSetupLinkExpired({ message: "This SSO setup link expired (5 minutes).", hint: "Ask the organization's admin for a new one." })
        return found.value
      })

    return {
      stateOf,

      /** A platform admin grants or replaces the entitlement (step-up platform_admin.sso_entitlement on the organization). */
      replaceEntitlement: (organizationId: string, maxConnections: number, adminUuid: string) =>
        Effect.gen(function*() {
          yield* lockOrganization(organizationId)
          yield* (yield* StepUpGuard).spend({ action: "platform_admin.sso_entitlement", resourceId: organizationId })
          const row = { organization_id: organizationId, max_connections: maxConnections, granted_by: adminUuid, granted_at: yield* now }
          yield* repo.putEntitlement(row)
          yield* events.publish(organizationId, adminUuid, "sso.entitlement.replaced.v1", () =>
            Effect.succeed({ changed: ["entitlement"], current: { resource: entitlementView(row) } }))
          return entitlementView(row)
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),

      /** A platform admin removes it: every connection is deactivated and open setup links end. */
      removeEntitlement: (organizationId: string, adminUuid: string) =>
        Effect.gen(function*() {
          yield* lockOrganization(organizationId)
          if (Option.isNone(yield* repo.entitlement(organizationId))) {
            return yield* new SsoEntitlementNotFound({ message: "This organization holds no SSO entitlement to remove." })
          }
          yield* (yield* StepUpGuard).spend({ action: "platform_admin.sso_entitlement", resourceId: organizationId })
          const at = yield* now
          yield* repo.removeEntitlement(organizationId)
          yield* repo.closeSetupLinks(organizationId, at)
          yield* deactivateAll(organizationId, adminUuid, "entitlement_removed", at)
          yield* events.publish(organizationId, adminUuid, "sso.entitlement.replaced.v1", () =>
            Effect.succeed({ changed: ["entitlement"], current: { resource: null } }))
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),

      /** The owner or an admin makes a 5-minute, one-use setup link; its token is answered once and kept as a digest. */
      createSetupLink: (organizationId: string, callerUuid: string) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, callerUuid, "admin")
          yield* requireEntitlement(organizationId)
          yield* (yield* StepUpGuard).spend({ action: "organization.sso_change", resourceId: organizationId })
          const at = yield* now
          const token = randomToken("ssl_", 32)
          const id = randomToken("ssk_", 16)
          const expiresAt = new Date(at.getTime() + Duration.toMillis(LIFETIMES.ssoSetupLink))
          yield* repo.insertSetupLink({ id, organizationId, digest: sha256Hex(token), createdBy: callerUuid, at, expiresAt })
          const resource = { setup_link_id: id, organization_id: organizationId, created_by: callerUuid, expires_at: expiresAt.toISOString() }
          yield* events.publish(organizationId, callerUuid, "sso.setup_link.created.v1", () =>
            Effect.succeed({ changed: ["setup_link"], current: { resource } }))
          return { ...resource, token, submit_url: `${config.publicUrl}/api/v1/sso/setup` }
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),

      /**
       * The link's holder names the identity provider: the issuer's discovery document is read through
       * the outbound guard first, then the link is spent and a pending connection made, with a provider
       * webhook secret answered once.
       */
      submitProvider: (token: string, settings: ProviderSettings) =>
        Effect.gen(function*() {
          const checked = checkOutboundUrl(settings.issuer, policy)
          if (Either.isLeft(checked)) {
            return yield* new ValidationFailed({ message: `issuer ${checked.left}.`, details: { fields: { issuer: checked.left } } })
          }
          yield* linkOf(token, yield* now)
          yield* relyingParty(policy, { issuer: settings.issuer, clientId: settings.client_id, clientSecret: settings.client_secret })
          return yield* Effect.gen(function*() {
            const at = yield* now
            const link = yield* linkOf(token, at)
            yield* lockOrganization(link.organization_id)
            const entitlement = yield* requireEntitlement(link.organization_id)
            const held = (yield* repo.connectionsOf(link.organization_id)).filter((row) => row.status !== "inactive").length
            if (held >= entitlement.max_connections) {
              return yield* new SsoConnectionLimit({
                message: "The organization holds as many SSO connections as its entitlement allows.",
                hint: "Deactivate one, or ask a platform admin for more.",
                details: { max_connections: entitlement.max_connections }
              })
            }
            const webhookSecret = randomToken("ssw_", 32)
            const row: ConnectionRow = {
              id: randomToken("ssc_", 16),
              organization_id: link.organization_id,
              issuer: settings.issuer,
              client_id: settings.client_id,
              client_secret: secrets.seal("sso_client_secret", settings.client_secret),
              webhook_secret: secrets.seal("sso_webhook_secret", webhookSecret),
              status: "pending",
              created_at: at,
              updated_at: at
            }
            yield* repo.insertConnection({ ...row, setup_link_id: link.id })
            yield* repo.useSetupLink(link.id, at)
            return { connection: view(row), webhook_signing_secret: webhookSecret }
          }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
        }),

      /** The owner or an admin activates or deactivates one connection (step-up organization.sso_change on its id). */
      setConnectionStatus: (organizationId: string, connectionId: string, status: "active" | "inactive", callerUuid: string) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, callerUuid, "admin")
          const row = yield* connectionOf(organizationId, connectionId)
          if (status === "active") yield* requireEntitlement(organizationId)
          if (row.status !== status) {
            yield* (yield* StepUpGuard).spend({ action: "organization.sso_change", resourceId: connectionId })
            yield* setStatus(row, status, callerUuid, status === "active" ? "activated" : "deactivated", yield* now)
          }
          return view(Option.getOrThrow(yield* repo.connection(connectionId)))
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),

      /** The owner or an admin disables SSO as a whole: every connection deactivated, open setup links ended. */
      disable: (organizationId: string, callerUuid: string) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, callerUuid, "admin")
          yield* (yield* StepUpGuard).spend({ action: "organization.sso_change", resourceId: organizationId })
          const at = yield* now
          const closedLinks = yield* repo.closeSetupLinks(organizationId, at)
          const deactivated = yield* deactivateAll(organizationId, callerUuid, "configuration_disabled", at)
          yield* events.publish(organizationId, callerUuid, "sso.configuration.disabled.v1", () =>
            Effect.succeed({
              changed: ["configuration"],
              current: { resource: { organization_id: organizationId, deactivated_connection_ids: deactivated, closed_setup_links: closedLinks } }
            }))
          return yield* stateOf(organizationId)
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die)),

      /** The connections a member may read (owner and admins only). */
      read: (organizationId: string, callerUuid: string) =>
        Effect.zipRight(access.read(organizationId, callerUuid, "admin"), stateOf(organizationId))
    }
  }),
  dependencies: [SsoRepo.Default, OrganizationsRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default, SecretsAtRest.Default]
}) {}
