import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { pageOf } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { SiliconCredentials } from "../silicon-auth/SiliconCredentials.ts"
import { ApprovalRequired, MemberNotFound, OwnerProtected } from "./errors.ts"
import { type MemberPosition, MembersRepo } from "./MembersRepo.ts"
import { membersData } from "./eventData.ts"
import type { GrantedRole, Member } from "./Organization.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import { OrganizationAccess } from "./OrganizationAccess.ts"
import { OrganizationEvents } from "./OrganizationEvents.ts"
import { roleEvents } from "./roleEvents.ts"

const memberNotFound = () => new MemberNotFound({ message: "No active member of this organization has this uuid." })

/** An organization's members: listed and read by any member; roles changed and members removed by admins. */
export class Members extends Effect.Service<Members>()("iam/Members", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const members = yield* MembersRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents
    const credentials = yield* SiliconCredentials
    const organizations = yield* OrganizationsRepo

    const activeMember = (organizationId: string, uuid: string) =>
      Effect.flatMap(members.find(organizationId, uuid), (found) =>
        Option.isSome(found) && found.value.status === "active" ? Effect.succeed(found.value) : Effect.fail(memberNotFound()))

    const governanceOf = (organizationId: string) =>
      Effect.flatMap(organizations.find(organizationId), Option.match({
        onNone: () => Effect.dieMessage(`organization ${organizationId} vanished in its own transaction`),
        onSome: (organization) => Effect.succeed(organization.governance)
      }))

    /**
     * Gives an active non-owner member another role and writes its events, inside the caller's
     * transaction (which holds the organization's lock and checked the rules); `extra` joins each event.
     */
    const applyRole = (actorUuid: string, organizationId: string, member: Member, role: GrantedRole, extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const updated = yield* members.setRole(organizationId, member.identity.uuid, role, yield* now)
        for (const type of roleEvents(member.role, role)) {
          yield* events.publish(organizationId, actorUuid, type, membersData([updated], ["role"], { previous: { role: member.role }, ...extra }))
        }
        return updated
      })

    return {
      activeMember,
      governanceOf,
      list: (actor: AuthenticatedIdentity, organizationId: string, limit: number, after: Option.Option<MemberPosition>) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "member")
          const page = pageOf(
            yield* members.pageOf(organizationId, limit, after),
            limit,
            (member): MemberPosition => [Date.parse(member.joined_at), member.identity.uuid]
          )
          return { items: page.items, next_cursor: page.nextCursor }
        }),
      read: (actor: AuthenticatedIdentity, organizationId: string, uuid: string) =>
        Effect.zipRight(access.read(organizationId, actor.uuid, "member"), activeMember(organizationId, uuid)),
      /**
       * Another role for a member (an authorization change: admins, after `confirm`, the step-up).
       * The owner's role is only changed by a transfer; the same role again changes nothing.
       */
      changeRole: <E, R>(
        actor: AuthenticatedIdentity,
        organizationId: string,
        uuid: string,
        role: GrantedRole,
        confirm: Effect.Effect<void, E, R>
      ) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const member = yield* activeMember(organizationId, uuid)
          if (member.role === "owner") {
            return yield* new OwnerProtected({
              message: "The owner's role changes only by a transfer of ownership.",
              hint: "POST /api/v1/organizations/{organization_id}/owner"
            })
          }
          if (member.role === role) return member
          if ((yield* governanceOf(organizationId)).role_changes_need_approval) {
            return yield* new ApprovalRequired({
              message: "This organization's role changes need approval: request the change instead.",
              hint: `POST /api/v1/organizations/${organizationId}/approval-requests`,
              details: { kind: "role_change" }
            })
          }
          yield* confirm
          return yield* applyRole(actor.uuid, organizationId, member, role)
        }).pipe(transaction),
      applyRole,
      /**
       * Removes a member (admins), or the caller itself (leaving). Never the owner. A Silicon's
       * token is revoked and its sessions end with it.
       */
      remove: (actor: AuthenticatedIdentity, organizationId: string, uuid: string) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, uuid === actor.uuid ? "member" : "admin")
          const member = yield* activeMember(organizationId, uuid)
          if (member.role === "owner") {
            return yield* new OwnerProtected({
              message: "The owner cannot be removed or leave.",
              hint: "Transfer ownership first: POST /api/v1/organizations/{organization_id}/owner"
            })
          }
          const at = yield* now
          const removed = yield* members.remove(organizationId, uuid, at)
          const silicon = member.identity.kind === "silicon"
          if (silicon) yield* credentials.revoke(uuid, at)
          yield* events.publish(
            organizationId,
            actor.uuid,
            silicon ? "organization.silicon.removed.v1" : "organization.membership.removed.v1",
            membersData([removed], ["status"])
          )
          return removed
        }).pipe(transaction)
    }
  }),
  dependencies: [MembersRepo.Default, OrganizationsRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default, SiliconCredentials.Default]
}) {}
