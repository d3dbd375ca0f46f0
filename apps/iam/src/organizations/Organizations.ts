import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { pageOf, ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { CarbonRequired, MemberNotFound } from "./errors.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { membersData } from "./eventData.ts"
import type { GovernanceSettings, MyOrganization } from "./Organization.ts"
import { OrganizationAccess } from "./OrganizationAccess.ts"
import { OrganizationEvents } from "./OrganizationEvents.ts"
import { type OrganizationPosition, OrganizationsRepo } from "./OrganizationsRepo.ts"
import { roleEvents } from "./roleEvents.ts"

export const newOrganizationId = () => randomToken("org_", 16)

export interface OrganizationFields {
  readonly name?: string | undefined
  /** Null or empty clears it. */
  readonly description?: string | null | undefined
}

const carbonOnly = (actor: AuthenticatedIdentity, what: string) =>
  actor.kind === "carbon" ? Effect.void : Effect.fail(new CarbonRequired({ message: `Only a Carbon may ${what}.` }))

/** Organizations themselves: creation, reading, the caller's list, their fields, and ownership. */
export class Organizations extends Effect.Service<Organizations>()("iam/Organizations", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const organizations = yield* OrganizationsRepo
    const members = yield* MembersRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents

    const current = (id: string) =>
      Effect.flatMap(organizations.find(id), Option.match({
        onNone: () => Effect.dieMessage(`organization ${id} vanished in its own transaction`),
        onSome: Effect.succeed
      }))
    const organizationData = (id: string, changed: ReadonlyArray<string>) => () =>
      Effect.map(current(id), (organization) => ({ changed, current: { organization } }))

    return {
      /** A new organization whose owner is its creator (a Carbon): organization.created, then the owner's membership.created. */
      create: (actor: AuthenticatedIdentity, fields: { readonly name: string; readonly description?: string | undefined }) =>
        Effect.gen(function*() {
          yield* carbonOnly(actor, "create an organization")
          const at = yield* now
          const id = newOrganizationId()
          const description = fields.description === undefined || fields.description === "" ? null : fields.description
          yield* organizations.insert({ id, name: fields.name, description, creatorUuid: actor.uuid, at })
          const owner = yield* members.add({ organizationId: id, identityUuid: actor.uuid, role: "owner", addedBy: actor.uuid, at })
          yield* events.publish(id, actor.uuid, "organization.created.v1", organizationData(id, ["name", "description", "owner_uuid"]))
          yield* events.publish(id, actor.uuid, "organization.membership.created.v1", membersData([owner], ["role", "status"]))
          const created: MyOrganization = { organization: yield* current(id), role: "owner" }
          return created
        }).pipe(transaction),
      read: (actor: AuthenticatedIdentity, id: string) =>
        Effect.gen(function*() {
          const role = yield* access.read(id, actor.uuid, "member")
          const found: MyOrganization = { organization: yield* current(id), role }
          return found
        }),
      /** The caller's organizations (active memberships), by name. */
      listMine: (actor: AuthenticatedIdentity, limit: number, after: Option.Option<OrganizationPosition>) =>
        Effect.map(organizations.pageOf(actor.uuid, limit, after), (rows) => {
          const page = pageOf(rows, limit, (row): OrganizationPosition => [row.organization.name, row.organization.id])
          return { items: page.items, next_cursor: page.nextCursor }
        }),
      /** New name or description (admins); a patch that changes nothing makes no version. */
      update: (actor: AuthenticatedIdentity, id: string, fields: OrganizationFields) =>
        Effect.gen(function*() {
          const role = yield* access.change(id, actor.uuid, "admin")
          const before = yield* current(id)
          const description = fields.description === "" ? null : fields.description
          const changed = [
            ...(fields.name !== undefined && fields.name !== before.name ? ["name"] : []),
            ...(description !== undefined && description !== before.description ? ["description"] : [])
          ]
          if (changed.length > 0) {
            yield* organizations.updateFields(id, { name: fields.name, description }, yield* now)
            yield* events.publish(id, actor.uuid, "organization.updated.v1", organizationData(id, changed))
          }
          const updated: MyOrganization = { organization: yield* current(id), role }
          return updated
        }).pipe(transaction),
      /** The approval settings (the owner): a change writes organization.updated with changed ["governance"]; the same settings change nothing. */
      setGovernance: (actor: AuthenticatedIdentity, id: string, settings: { readonly [K in keyof GovernanceSettings]?: boolean | undefined }) =>
        Effect.gen(function*() {
          const role = yield* access.change(id, actor.uuid, "owner")
          const before = yield* current(id)
          const next: GovernanceSettings = {
            role_changes_need_approval: settings.role_changes_need_approval ?? before.governance.role_changes_need_approval,
            tag_changes_need_approval: settings.tag_changes_need_approval ?? before.governance.tag_changes_need_approval
          }
          if (
            next.role_changes_need_approval !== before.governance.role_changes_need_approval ||
            next.tag_changes_need_approval !== before.governance.tag_changes_need_approval
          ) {
            yield* organizations.setGovernance(id, next, yield* now)
            yield* events.publish(id, actor.uuid, "organization.updated.v1", organizationData(id, ["governance"]))
          }
          const updated: MyOrganization = { organization: yield* current(id), role }
          return updated
        }).pipe(transaction),
      /**
       * The owner passes ownership to another active Carbon member, after `confirm` (the step-up);
       * the previous owner stays as an admin.
       */
      transferOwnership: <E, R>(actor: AuthenticatedIdentity, id: string, newOwnerUuid: string, confirm: Effect.Effect<void, E, R>) =>
        Effect.gen(function*() {
          yield* access.change(id, actor.uuid, "owner")
          if (newOwnerUuid === actor.uuid) {
            return yield* new ValidationFailed({
              message: "You already own this organization.",
              details: { fields: { uuid: "is already the owner" } }
            })
          }
          const target = yield* members.find(id, newOwnerUuid)
          if (Option.isNone(target) || target.value.status !== "active") {
            return yield* new MemberNotFound({ message: "The new owner must be an active member of the organization." })
          }
          if (target.value.identity.kind !== "carbon") {
            return yield* new CarbonRequired({ message: "Only a Carbon may own an organization." })
          }
          yield* confirm
          const at = yield* now
          const previousOwner = yield* members.setRole(id, actor.uuid, "admin", at)
          const newOwner = yield* members.setRole(id, newOwnerUuid, "owner", at)
          yield* events.publish(id, actor.uuid, "organization.ownership_transferred.v1", () =>
            Effect.map(current(id), (organization) => ({
              changed: ["owner_uuid"],
              previous_owner_uuid: actor.uuid,
              current: { organization, members: [newOwner, previousOwner] }
            })))
          for (const type of roleEvents(target.value.role, "owner")) {
            yield* events.publish(id, actor.uuid, type, membersData([newOwner], ["role"], { previous: { role: target.value.role } }))
          }
          for (const type of roleEvents("owner", "admin")) {
            yield* events.publish(id, actor.uuid, type, membersData([previousOwner], ["role"], { previous: { role: "owner" } }))
          }
          const transferred: MyOrganization = { organization: yield* current(id), role: "admin" }
          return transferred
        }).pipe(transaction)
    }
  }),
  dependencies: [OrganizationsRepo.Default, MembersRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default]
}) {}
