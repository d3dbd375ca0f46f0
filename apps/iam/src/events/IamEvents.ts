import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { AnsweredDefect } from "@platform/http"
import { now } from "@platform/service"
import { Effect } from "effect"
import { fanOut } from "./fanOut.ts"
import { EventTooLarge } from "./errors.ts"
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
       * Records one event inside the caller's transaction, with one webhook delivery per receiver
       * (fanOut.ts); the change, its event and its deliveries commit or roll back together.
       * A second event at the same aggregate version fails the change; so does an event or a
       * projection over 1 MiB, answered as EventTooLarge (413) whatever route made the change.
       */
      record: (event: NewIamEvent) =>
        Effect.gen(function*() {
          const data = JSON.stringify(event.data)
          if (Buffer.byteLength(data, "utf8") > MAX_EVENT_DATA_BYTES) {
            return yield* Effect.die(
              new AnsweredDefect(
                new EventTooLarge({
                  message: `This change's ${event.type} event would hold more than 1 MiB; nothing was changed.`
                })
              )
            )
          }
          const id = newEventId()
          const occurredAt = yield* now
          yield* sql`
            insert into iam_events (id, type, aggregate_type, aggregate_id, aggregate_version, actor_uuid, occurred_at, data)
            values (${id}, ${event.type}, ${event.aggregate.type}, ${event.aggregate.id}, ${event.aggregate.version},
              ${event.actorUuid}, ${occurredAt}, ${data}::jsonb)
          `.pipe(Effect.orDie)
          // The bytes stored are the ones projected: dates as JSON has them.
          yield* fanOut({ id, type: event.type, occurredAt, aggregate: event.aggregate, data: JSON.parse(data) }).pipe(
            Effect.provideService(SqlClient.SqlClient, sql)
          )
          return id
        })
    }
  })
}) {}
