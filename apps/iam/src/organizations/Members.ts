import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { pageOf } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { SiliconCredentials } from "../silicon-auth/SiliconCredentials.ts"
import { MemberNotFound, OwnerProtected } from "./errors.ts"
import { type MemberPosition, MembersRepo } from "./MembersRepo.ts"
import { membersData } from "./eventData.ts"
import type { GrantedRole } from "./Organization.ts"
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

    const activeMember = (organizationId: string, uuid: string) =>
      Effect.flatMap(members.find(organizationId, uuid), (found) =>
        Option.isSome(found) && found.value.status === "active" ? Effect.succeed(found.value) : Effect.fail(memberNotFound()))

    return {
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
          yield* confirm
          const updated = yield* members.setRole(organizationId, uuid, role, yield* now)
          for (const type of roleEvents(member.role, role)) {
            yield* events.publish(organizationId, actor.uuid, type, membersData([updated], ["role"], { previous: { role: member.role } }))
          }
          return updated
        }).pipe(transaction),
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
  dependencies: [MembersRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default, SiliconCredentials.Default]
}) {}
