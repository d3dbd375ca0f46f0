import { Effect, Option } from "effect"
import { AdminRequired, OrganizationNotFound, OwnerRequired } from "./errors.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { atLeast, type MembershipRole } from "./Organization.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"

const notFound = () =>
  new OrganizationNotFound({
    message: "No organization with this id has you as a member.",
    hint: "GET /api/v1/organizations lists yours."
  })

const refusal = (minimum: MembershipRole) =>
  minimum === "owner"
    ? new OwnerRequired({ message: "Only the organization's owner may do this." })
    : new AdminRequired({ message: "Only the organization's owner or an admin may do this." })

/** What a role short of `Minimum` is refused with. */
export type RoleRefusal<Minimum extends MembershipRole> = Minimum extends "owner" ? OwnerRequired
  : Minimum extends "admin" ? AdminRequired
  : never

/** Who may do what in an organization: its active members, by role. */
export class OrganizationAccess extends Effect.Service<OrganizationAccess>()("iam/OrganizationAccess", {
  effect: Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    const members = yield* MembersRepo

    const roleAtLeast = <Minimum extends MembershipRole>(
      organizationId: string,
      identityUuid: string,
      minimum: Minimum
    ) =>
      Effect.gen(function*() {
        const role = yield* members.roleOf(organizationId, identityUuid)
        if (Option.isNone(role)) return yield* notFound()
        return atLeast(role.value, minimum) ? role.value : yield* refusal(minimum)
      }) as Effect.Effect<MembershipRole, OrganizationNotFound | RoleRefusal<Minimum>>

    return {
      /** The caller's role when it is an active member with at least `minimum`; a non-member is told the organization does not exist. */
      read: <Minimum extends MembershipRole>(organizationId: string, identityUuid: string, minimum: Minimum) =>
        roleAtLeast(organizationId, identityUuid, minimum),
      /**
       * The same, for a change: inside the caller's transaction, the organization is locked first,
       * so the rules are checked against the state the change applies to.
       */
      change: <Minimum extends MembershipRole>(organizationId: string, identityUuid: string, minimum: Minimum) =>
        Effect.flatMap(
          organizations.lock(organizationId),
          (exists) => exists ? roleAtLeast(organizationId, identityUuid, minimum) : Effect.fail(notFound())
        )
    }
  }),
  dependencies: [OrganizationsRepo.Default, MembersRepo.Default]
}) {}
