import { Effect, Option } from "effect"
import type { MembershipRole } from "./Organization.ts"
import { MembersRepo } from "./MembersRepo.ts"

/** An organization an identity belongs to now, as the application login handoff lists it. */
export interface ActiveOrganization {
  readonly organization_id: string
  readonly name: string
  readonly role: MembershipRole
}

/** Who belongs where, for other areas (the application login handoff, application ownership): active memberships only. */
export class Memberships extends Effect.Service<Memberships>()("iam/Memberships", {
  effect: Effect.map(MembersRepo, (members) => ({
    /** Every organization where the identity is an active member, by name. */
    activeOrganizationsOf: (identityUuid: string): Effect.Effect<ReadonlyArray<ActiveOrganization>> =>
      members.activeOrganizationsOf(identityUuid),
    isActiveMember: (identityUuid: string, organizationId: string): Effect.Effect<boolean> =>
      Effect.map(members.roleOf(organizationId, identityUuid), Option.isSome),
    /** The identity's role in the organization while it is an active member (an application's owning organization). */
    roleOf: (identityUuid: string, organizationId: string): Effect.Effect<Option.Option<MembershipRole>> =>
      members.roleOf(organizationId, identityUuid)
  })),
  dependencies: [MembersRepo.Default]
}) {}
