import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { GrantedRole } from "../organizations/Organization.ts"
import type { ApprovalKind, ApprovalRequest } from "./Governance.ts"

interface ApprovalRow {
  readonly id: string
  readonly organization_id: string
  readonly kind: ApprovalKind
  readonly member_uuid: string
  readonly role: GrantedRole | null
  readonly tag_ids: ReadonlyArray<string> | null
  readonly status: ApprovalRequest["status"]
  readonly requested_by: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly decided_by: string | null
  readonly decided_at: Date | null
}

/** A request as it reads at `at`: a pending one past its expiry reads expired. */
const toRequest = (at: Date) => (row: ApprovalRow): ApprovalRequest => ({
  id: row.id,
  organization_id: row.organization_id,
  kind: row.kind,
  member_uuid: row.member_uuid,
  role: row.role,
  tag_ids: row.tag_ids,
  status: row.status === "pending" && row.expires_at <= at ? "expired" : row.status,
  requested_by_uuid: row.requested_by,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  decided_by_uuid: row.decided_by,
  decided_at: row.decided_at?.toISOString() ?? null
})

/** A page position in an organization's requests: by creation time, then id (milliseconds since the epoch). */
export type ApprovalPosition = readonly [createdAtMillis: number, id: string]

/** Approval requests of role and tag changes. */
export class ApprovalsRepo extends Effect.Service<ApprovalsRepo>()("iam/ApprovalsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`
      select id, organization_id, kind, member_uuid, role, tag_ids, status, requested_by, created_at, expires_at, decided_by, decided_at
      from organization_approval_requests
    `
    return {
      find: (organizationId: string, id: string, at: Date) =>
        sql<ApprovalRow>`${select} where organization_id = ${organizationId} and id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRequest(at))),
          Effect.orDie
        ),
      /** The pending request of this kind for the member, after marking one past its expiry as expired (frees its place). */
      pendingFor: (organizationId: string, memberUuid: string, kind: ApprovalKind, at: Date) =>
        sql`
          update organization_approval_requests set status = 'expired'
          where organization_id = ${organizationId} and member_uuid = ${memberUuid} and kind = ${kind}
            and status = 'pending' and expires_at <= ${at}
        `.pipe(
          Effect.zipRight(sql<ApprovalRow>`
            ${select} where organization_id = ${organizationId} and member_uuid = ${memberUuid} and kind = ${kind} and status = 'pending'
          `),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRequest(at))),
          Effect.orDie
        ),
      insert: (request: ApprovalRequest) =>
        sql`
          insert into organization_approval_requests
            (id, organization_id, kind, member_uuid, role, tag_ids, status, requested_by, created_at, expires_at)
          values (${request.id}, ${request.organization_id}, ${request.kind}, ${request.member_uuid}, ${request.role},
            ${request.tag_ids === null ? null : JSON.stringify(request.tag_ids)}::jsonb, 'pending', ${request.requested_by_uuid},
            ${new Date(request.created_at)}, ${new Date(request.expires_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      decide: (id: string, status: "approved" | "rejected", decidedBy: string, at: Date) =>
        sql`
          update organization_approval_requests set status = ${status}, decided_by = ${decidedBy}, decided_at = ${at}
          where id = ${id} and status = 'pending'
        `.pipe(Effect.asVoid, Effect.orDie),
      pageOf: (organizationId: string, limit: number, after: Option.Option<ApprovalPosition>, at: Date) =>
        sql<ApprovalRow>`
          ${select}
          where organization_id = ${organizationId}
            ${
          Option.match(after, {
            onNone: () => sql``,
            onSome: ([millis, id]) => sql`and (created_at, id) > (${new Date(millis)}, ${id})`
          })
        }
          order by created_at, id
          limit ${limit + 1}
        `.pipe(Effect.map((rows) => rows.map(toRequest(at))), Effect.orDie)
    }
  })
}) {}
