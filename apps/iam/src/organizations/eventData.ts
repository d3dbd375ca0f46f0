import { Effect } from "effect"
import type { IamEventData } from "../events/IamEvents.ts"
import type { Member } from "./Organization.ts"

/** An event about members: what changed and the members as they are at that version (spec 2: `current.members`). */
export const membersData = (
  members: ReadonlyArray<Member>,
  changed: ReadonlyArray<string>,
  extra: Record<string, unknown> = {}
) =>
() => Effect.succeed<IamEventData>({ changed, current: { members }, ...extra })
