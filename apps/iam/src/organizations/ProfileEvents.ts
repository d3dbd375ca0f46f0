import { Effect } from "effect"
import { membersData } from "./eventData.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { OrganizationEvents } from "./OrganizationEvents.ts"

/**
 * When IAM's projection of an identity changes (accounts' changes feed), one event per organization
 * it is an active member of, with that member: carbon.updated for a Carbon, and its Silicon-only
 * form organization.membership.profile_updated for a Silicon. IAM itself is the actor.
 */
export class ProfileEvents extends Effect.Service<ProfileEvents>()("iam/ProfileEvents", {
  effect: Effect.gen(function*() {
    const members = yield* MembersRepo
    const events = yield* OrganizationEvents
    return {
      /** Inside the caller's transaction, after the projection changed; `changed` names the member's identity fields. */
      identityChanged: (identityUuid: string, changed: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          for (const { organization_id } of yield* members.activeOrganizationsOf(identityUuid)) {
            const member = yield* members.read(organization_id, identityUuid)
            yield* events.publish(
              organization_id,
              null,
              member.identity.kind === "silicon" ? "organization.membership.profile_updated.v1" : "carbon.updated.v1",
              membersData([member], changed)
            )
          }
        })
    }
  }),
  dependencies: [MembersRepo.Default, OrganizationEvents.Default]
}) {}
