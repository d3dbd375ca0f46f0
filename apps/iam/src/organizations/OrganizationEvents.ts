import { Effect } from "effect"
import type { IamEventData } from "../events/IamEvents.ts"
import { IamEvents } from "../events/IamEvents.ts"
import type { IamEventType } from "../events/IamEventType.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"

/** An organization's events: each raises its version by one and is written in the change's transaction. */
export class OrganizationEvents extends Effect.Service<OrganizationEvents>()("iam/OrganizationEvents", {
  effect: Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    const events = yield* IamEvents
    return {
      /** `data` is read at the new version, so the state it captures is the state of that version. */
      publish: <E, R>(
        organizationId: string,
        actorUuid: string | null,
        type: IamEventType,
        data: (version: number) => Effect.Effect<IamEventData, E, R>
      ) =>
        Effect.gen(function*() {
          const version = yield* organizations.nextVersion(organizationId)
          yield* events.record({
            type,
            aggregate: { type: "organization", id: organizationId, version },
            actorUuid,
            data: yield* data(version)
          })
        })
    }
  }),
  dependencies: [OrganizationsRepo.Default, IamEvents.Default]
}) {}
