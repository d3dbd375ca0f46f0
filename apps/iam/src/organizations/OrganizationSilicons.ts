import { SqlClient } from "@effect/sql"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { SiliconCredentials } from "../silicon-auth/SiliconCredentials.ts"
import { CarbonRequired, MemberNotFound } from "./errors.ts"
import { membersData } from "./eventData.ts"
import { MembersRepo } from "./MembersRepo.ts"
import type { GrantedRole } from "./Organization.ts"
import { OrganizationAccess } from "./OrganizationAccess.ts"
import { OrganizationEvents } from "./OrganizationEvents.ts"

export interface NewSilicon {
  readonly id: string
  readonly display_name: string
  readonly role?: GrantedRole | undefined
}

/**
 * Silicons made in an organization (decisions.md, "Silicons of an organization"): an accounts
 * account whose custodian is the Carbon creating it, a member of the organization, and an IAM
 * token shown once at creation and at each rotation.
 */
export class OrganizationSilicons extends Effect.Service<OrganizationSilicons>()("iam/OrganizationSilicons", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const directory = yield* AccountsDirectory
    const identities = yield* IdentitiesRepo
    const members = yield* MembersRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents
    const credentials = yield* SiliconCredentials

    return {
      /** An admin (a Carbon: it becomes the custodian) creates a Silicon in the organization; its token is in this answer only. */
      create: (actor: AuthenticatedIdentity, organizationId: string, silicon: NewSilicon) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "admin")
          if (actor.kind !== "carbon") {
            return yield* new CarbonRequired({ message: "Only a Carbon may create a Silicon: it becomes its custodian." })
          }
          const created = yield* directory.createSilicon({
            id: silicon.id,
            display_name: silicon.display_name,
            custodian_uuid: actor.uuid
          }).pipe(
            Effect.catchTag("AccountNotFound", () =>
              Effect.fail(new CarbonRequired({ message: "Accounts does not have you as an active Carbon to be the custodian." })))
          )
          return yield* transaction(Effect.gen(function*() {
            yield* access.change(organizationId, actor.uuid, "admin")
            const at = yield* now
            yield* identities.remember({
              uuid: created.uuid,
              id: created.id ?? silicon.id,
              kind: "silicon",
              display_name: created.display_name,
              status: created.status
            })
            const member = yield* members.add({
              organizationId,
              identityUuid: created.uuid,
              role: silicon.role ?? "member",
              addedBy: actor.uuid,
              at
            })
            const token = yield* credentials.issue(created.uuid, at)
            yield* events.publish(organizationId, actor.uuid, "organization.silicon.created.v1", membersData([member], ["role", "status"]))
            return { member, token }
          }))
        }),
      /** A new token for a Silicon member (admins, after `confirm`, the step-up): the old one stops and its sessions end. */
      rotateToken: <E, R>(actor: AuthenticatedIdentity, organizationId: string, siliconUuid: string, confirm: Effect.Effect<void, E, R>) =>
        transaction(Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const member = yield* members.find(organizationId, siliconUuid)
          if (Option.isNone(member) || member.value.status !== "active" || member.value.identity.kind !== "silicon") {
            return yield* new MemberNotFound({ message: "No active Silicon of this organization has this uuid." })
          }
          yield* confirm
          const at = yield* now
          const token = yield* credentials.issue(siliconUuid, at)
          yield* events.publish(
            organizationId,
            actor.uuid,
            "organization.silicon.credential_rotated.v1",
            membersData([member.value], ["credential"], { rotated_at: at.toISOString() })
          )
          return { token, rotated_at: at.toISOString() }
        }))
    }
  }),
  dependencies: [IdentitiesRepo.Default, MembersRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default, SiliconCredentials.Default]
}) {}
