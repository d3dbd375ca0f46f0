import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

export interface RotationRequest {
  readonly id: string
  readonly organization_id: string
  readonly silicon_uuid: string
  readonly requested_by_uuid: string
  readonly status: "pending" | "completed"
  readonly created_at: string
  readonly completed_at: string | null
}

/** Where a page of requests ends: the last one's creation time (milliseconds) and id. */
export type RotationRequestPosition = readonly [createdAtMillis: number, id: string]

interface RotationRequestRow {
  readonly id: string
  readonly organization_id: string
  readonly silicon_uuid: string
  readonly requested_by: string
  readonly status: RotationRequest["status"]
  readonly created_at: Date
  readonly completed_at: Date | null
}

const toRequest = (row: RotationRequestRow): RotationRequest => ({
  id: row.id,
  organization_id: row.organization_id,
  silicon_uuid: row.silicon_uuid,
  requested_by_uuid: row.requested_by,
  status: row.status,
  created_at: row.created_at.toISOString(),
  completed_at: row.completed_at?.toISOString() ?? null
})

/** Requests that a Silicon's IAM token be rotated: pending until an admin rotates it. */
export class RotationRequestsRepo extends Effect.Service<RotationRequestsRepo>()("iam/RotationRequestsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      pendingFor: (organizationId: string, siliconUuid: string) =>
        sql<RotationRequestRow>`
          select id, organization_id, silicon_uuid, requested_by, status, created_at, completed_at from silicon_rotation_requests
          where organization_id = ${organizationId} and silicon_uuid = ${siliconUuid} and status = 'pending'
        `.pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRequest)), Effect.orDie),
      insert: (request: RotationRequest) =>
        sql`
          insert into silicon_rotation_requests (id, organization_id, silicon_uuid, requested_by, status, created_at)
          values (${request.id}, ${request.organization_id}, ${request.silicon_uuid}, ${request.requested_by_uuid}, 'pending',
            ${new Date(request.created_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** A keyset page of the organization's requests, oldest first (`limit + 1` rows, so the caller knows if more follow). */
      pageOf: (organizationId: string, status: RotationRequest["status"] | undefined, limit: number, after: Option.Option<RotationRequestPosition>) =>
        sql<RotationRequestRow>`
          select id, organization_id, silicon_uuid, requested_by, status, created_at, completed_at from silicon_rotation_requests
          where organization_id = ${organizationId}
            ${status === undefined ? sql`` : sql`and status = ${status}`}
            ${Option.match(after, { onNone: () => sql``, onSome: ([millis, id]) => sql`and (created_at, id) > (${new Date(millis)}, ${id})` })}
          order by created_at, id
          limit ${limit + 1}
        `.pipe(Effect.map((rows) => rows.map(toRequest)), Effect.orDie),
      /** Marks the pending request of the Silicon completed; its id, if there was one. */
      complete: (organizationId: string, siliconUuid: string, at: Date) =>
        sql<{ readonly id: string }>`
          update silicon_rotation_requests set status = 'completed', completed_at = ${at}
          where organization_id = ${organizationId} and silicon_uuid = ${siliconUuid} and status = 'pending'
          returning id
        `.pipe(Effect.map((rows) => rows[0]?.id ?? null), Effect.orDie)
    }
  })
}) {}
