import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface EventRow {
  readonly type: string
  readonly aggregate_version: number
  readonly actor_uuid: string | null
  readonly data: {
    readonly changed: ReadonlyArray<string>
    readonly current: Record<string, unknown>
    readonly [extra: string]: unknown
  }
}

/** The organization's events in version order. */
export const eventsOf = (organizationId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<EventRow>`
      select type, aggregate_version, actor_uuid, data from iam_events
      where aggregate_type = 'organization' and aggregate_id = ${organizationId}
      order by aggregate_version
    `.pipe(Effect.orDie))

/** Just the types, in version order. */
export const eventTypesOf = (organizationId: string) =>
  Effect.map(eventsOf(organizationId), (rows) => rows.map((row) => row.type))
