import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { now } from "@platform/service"
import { Effect } from "effect"
import type { IamEventType } from "./IamEventType.ts"

/** Spec 2: a recipient's projection is at most 1 MiB; the whole state is, so every projection is. */
export const MAX_EVENT_DATA_BYTES = 1024 * 1024

/**
 * What an event says (spec 2): the fields that changed and the resource state at that version —
 * `current.members` for member snapshots, `current.organization` for organization updates,
 * `current.resource` for invitations — plus what the type needs (the previous role, a reason).
 */
export interface IamEventData {
  readonly changed: ReadonlyArray<string>
  readonly current: {
    readonly organization?: unknown
    readonly members?: ReadonlyArray<unknown>
    readonly resource?: unknown
  }
  readonly [extra: string]: unknown
}

export interface NewIamEvent {
  readonly type: IamEventType
  /** The organization (or other aggregate) and its version after this change. */
  readonly aggregate: { readonly type: "organization"; readonly id: string; readonly version: number }
  /** Who made the change; null for IAM itself. */
  readonly actorUuid: string | null
  readonly data: IamEventData
}

export const newEventId = () => randomToken("evt_", 16)

/** The events outbox: a row per change, in the caller's transaction. */
export class IamEvents extends Effect.Service<IamEvents>()("iam/IamEvents", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /**
       * Records one event inside the caller's transaction; the change and its event commit or
       * roll back together. A second event at the same aggregate version fails the change.
       */
      record: (event: NewIamEvent) =>
        Effect.gen(function*() {
          const data = JSON.stringify(event.data)
          if (Buffer.byteLength(data, "utf8") > MAX_EVENT_DATA_BYTES) {
            return yield* Effect.dieMessage(`event ${event.type} of ${event.aggregate.id} holds more than 1 MiB`)
          }
          const id = newEventId()
          yield* sql`
            insert into iam_events (id, type, aggregate_type, aggregate_id, aggregate_version, actor_uuid, occurred_at, data)
            values (${id}, ${event.type}, ${event.aggregate.type}, ${event.aggregate.id}, ${event.aggregate.version},
              ${event.actorUuid}, ${yield* now}, ${data}::jsonb)
          `.pipe(Effect.orDie)
          return id
        })
    }
  })
}) {}
