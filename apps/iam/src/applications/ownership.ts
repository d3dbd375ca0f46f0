import { Effect } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import type { ApplicationRow } from "./ApplicationsRepo.ts"
import { ApplicationOwnerRequired } from "./errors.ts"

/** The application's owner: the Carbon that registered it (decisions.md, "Application ownership"). */
export const requireOwner = (application: ApplicationRow, identity: AuthenticatedIdentity) =>
  identity.kind === "carbon" && application.owner_uuid === identity.uuid
    ? Effect.void
    : Effect.fail(new ApplicationOwnerRequired({ message: "Only the application's owner may manage its credentials." }))
