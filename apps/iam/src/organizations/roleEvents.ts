import type { IamEventType } from "../events/IamEventType.ts"
import { atLeast, type MembershipRole } from "./Organization.ts"

/**
 * The events of a member's role change: always authorization_updated; admin.promoted when the
 * member gains an admin's powers (member to admin or owner), admin.demoted when it loses them.
 */
export const roleEvents = (previous: MembershipRole, next: MembershipRole): ReadonlyArray<IamEventType> => {
  const wasAdmin = atLeast(previous, "admin")
  const isAdmin = atLeast(next, "admin")
  return [
    "organization.membership.authorization_updated.v1",
    ...(!wasAdmin && isAdmin ? ["organization.admin.promoted.v1" as const] : []),
    ...(wasAdmin && !isAdmin ? ["organization.admin.demoted.v1" as const] : [])
  ]
}
