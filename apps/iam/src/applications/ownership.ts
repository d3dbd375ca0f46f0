import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { Memberships } from "../organizations/Memberships.ts"
import type { ApplicationRow } from "./ApplicationsRepo.ts"
import { ApplicationOwnerRequired } from "./errors.ts"

/**
 * The application's owners (decisions.md, "Application ownership"): the Carbon that registered it, and the owner and
 * admins of its owning organization, if it has one, while they are.
 */
export const requireOwner = (application: ApplicationRow, identity: AuthenticatedIdentity) =>
  Effect.gen(function*() {
    if (identity.kind === "carbon" && application.owner_uuid === identity.uuid) return
    const role = application.organization_id === null
      ? Option.none()
      : yield* (yield* Memberships).roleOf(identity.uuid, application.organization_id)
    if (identity.kind === "carbon" && Option.exists(role, (held) => held === "owner" || held === "admin")) return
    return yield* new ApplicationOwnerRequired({
      message: "Only the application's owner, or an admin of its organization, may manage its credentials."
    })
  })
