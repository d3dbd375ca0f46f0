import { SqlClient } from "@effect/sql"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { pageOf } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { IdentitiesRepo } from "../identities/IdentitiesRepo.ts"
import { SiliconCredentials } from "../silicon-auth/SiliconCredentials.ts"
import { CarbonRequired, MemberNotFound, RotationRequestExists, SiliconCustodianRequired } from "./errors.ts"
import { type RotationRequest, type RotationRequestPosition, RotationRequestsRepo } from "./RotationRequestsRepo.ts"
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
    const rotationRequests = yield* RotationRequestsRepo

    const activeSilicon = (organizationId: string, siliconUuid: string) =>
      Effect.flatMap(members.find(organizationId, siliconUuid), (member) =>
        Option.isSome(member) && member.value.status === "active" && member.value.identity.kind === "silicon"
          ? Effect.succeed(member.value)
          : Effect.fail(new MemberNotFound({ message: "No active Silicon of this organization has this uuid." })))

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
      /**
       * The Silicon itself or its custodian (the Carbon who created it here), an active member, asks for
       * the Silicon's token to be rotated; an admin's rotation completes it. No credential in the event.
       */
      /** The organization's rotation requests, oldest first, for its owner and admins. */
      listRotationRequests: (
        actor: AuthenticatedIdentity,
        organizationId: string,
        status: RotationRequest["status"] | undefined,
        limit: number,
        after: Option.Option<RotationRequestPosition>
      ) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "admin")
          const page = pageOf(
            yield* rotationRequests.pageOf(organizationId, status, limit, after),
            limit,
            (request): RotationRequestPosition => [Date.parse(request.created_at), request.id]
          )
          return { items: page.items, next_cursor: page.nextCursor }
        }),
      requestRotation: (actor: AuthenticatedIdentity, organizationId: string, siliconUuid: string) =>
        transaction(Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "member")
          const member = yield* activeSilicon(organizationId, siliconUuid)
          if (actor.uuid !== siliconUuid && actor.uuid !== (yield* members.addedBy(organizationId, siliconUuid))) {
            return yield* new SiliconCustodianRequired({ message: "Only the Silicon itself or its custodian may ask for its token's rotation." })
          }
          const pending = yield* rotationRequests.pendingFor(organizationId, siliconUuid)
          if (Option.isSome(pending)) {
            return yield* new RotationRequestExists({
              message: "A rotation of this Silicon's token is already asked for.",
              details: { request_id: pending.value.id }
            })
          }
          const request: RotationRequest = {
            id: randomToken("rrq_", 16),
            organization_id: organizationId,
            silicon_uuid: siliconUuid,
            requested_by_uuid: actor.uuid,
            status: "pending",
            created_at: (yield* now).toISOString(),
            completed_at: null
          }
          yield* rotationRequests.insert(request)
          yield* events.publish(
            organizationId,
            actor.uuid,
            "organization.silicon.rotation_requested.v1",
            membersData([member], ["rotation_request"], { rotation_request: request })
          )
          return request
        })),
      /** A new token for a Silicon member (admins, after `confirm`, the step-up): the old one stops and its sessions end. */
      rotateToken: <E, R>(actor: AuthenticatedIdentity, organizationId: string, siliconUuid: string, confirm: Effect.Effect<void, E, R>) =>
        transaction(Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const member = yield* activeSilicon(organizationId, siliconUuid)
          yield* confirm
          const at = yield* now
          const token = yield* credentials.issue(siliconUuid, at)
          const answered = yield* rotationRequests.complete(organizationId, siliconUuid, at)
          yield* events.publish(
            organizationId,
            actor.uuid,
            "organization.silicon.credential_rotated.v1",
            membersData([member], ["credential"], { rotated_at: at.toISOString(), rotation_request_id: answered })
          )
          return { token, rotated_at: at.toISOString() }
        }))
    }
  }),
  dependencies: [IdentitiesRepo.Default, MembersRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default, SiliconCredentials.Default, RotationRequestsRepo.Default]
}) {}
