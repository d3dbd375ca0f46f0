import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { pageOf } from "@platform/http"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { OwnerProtected } from "../organizations/errors.ts"
import { Members } from "../organizations/Members.ts"
import type { Member } from "../organizations/Organization.ts"
import { OrganizationAccess } from "../organizations/OrganizationAccess.ts"
import { OrganizationEvents } from "../organizations/OrganizationEvents.ts"
import { type ApprovalPosition, ApprovalsRepo } from "./ApprovalsRepo.ts"
import {
  ApprovalNotRequired,
  ApprovalRequestExists,
  ApprovalRequestExpired,
  ApprovalRequestNotFound,
  ApprovalRequestNotPending,
  NothingToChange,
  OwnDecisionRefused
} from "./errors.ts"
import type { ApprovalRequest, NewApprovalRequest } from "./Governance.ts"
import { Tags } from "./Tags.ts"

/** How long a request waits for its decision. */
export const APPROVAL_REQUEST_LIFETIME = Duration.days(7)

export type Decision = "approve" | "reject"

const requestData = (request: ApprovalRequest, changed: ReadonlyArray<string>) => () =>
  Effect.succeed({ changed, current: { resource: request } })

const ownerProtected = () =>
  new OwnerProtected({
    message: "The owner's role changes only by a transfer of ownership.",
    hint: "POST /api/v1/organizations/{organization_id}/owner"
  })

/**
 * Approval of role and tag changes (decisions.md, "Governance"): while the organization asks for it,
 * an admin's change is a request that another admin or the owner approves (applying it in the
 * same transaction) or rejects; neither its requester nor its member may decide it.
 */
export class Approvals extends Effect.Service<Approvals>()("iam/Approvals", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const approvals = yield* ApprovalsRepo
    const members = yield* Members
    const tags = yield* Tags
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents

    const requestOf = (organizationId: string, id: string, at: Date) =>
      Effect.flatMap(approvals.find(organizationId, id, at), Option.match({
        onNone: () => Effect.fail(new ApprovalRequestNotFound({ message: "The organization has no approval request with this id." })),
        onSome: Effect.succeed
      }))

    /** The role or tags the request would give, checked against the member as it is now. */
    const proposal = (organizationId: string, member: Member, body: NewApprovalRequest) =>
      Effect.gen(function*() {
        if (body.kind === "role_change") {
          if (member.role === "owner") return yield* ownerProtected()
          return { role: body.role, tag_ids: null, changes: member.role !== body.role }
        }
        const tagIds = yield* tags.validTagIds(organizationId, body.tag_ids)
        return { role: null, tag_ids: tagIds, changes: !tags.sameSet(member.tags, tagIds) }
      })

    return {
      /** An admin asks for a role or tag change; the organization must ask for approval of that kind (else 409 approval_not_required). */
      request: (actor: AuthenticatedIdentity, organizationId: string, body: NewApprovalRequest) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const member = yield* members.activeMember(organizationId, body.member_uuid)
          const governance = yield* members.governanceOf(organizationId)
          const needed = body.kind === "role_change" ? governance.role_changes_need_approval : governance.tag_changes_need_approval
          if (!needed) {
            return yield* new ApprovalNotRequired({
              message: "This organization does not ask for approval of this kind of change: make it directly.",
              hint: body.kind === "role_change"
                ? "PATCH /api/v1/organizations/{organization_id}/members/{uuid}"
                : "PUT /api/v1/organizations/{organization_id}/members/{uuid}/tags"
            })
          }
          const proposed = yield* proposal(organizationId, member, body)
          if (!proposed.changes) return yield* new NothingToChange({ message: "The member already has this." })
          const at = yield* now
          const pending = yield* approvals.pendingFor(organizationId, member.identity.uuid, body.kind, at)
          if (Option.isSome(pending)) {
            return yield* new ApprovalRequestExists({
              message: "A pending request of this kind for this member waits for its decision.",
              details: { request_id: pending.value.id }
            })
          }
          const request: ApprovalRequest = {
            id: randomToken("apr_", 16),
            organization_id: organizationId,
            kind: body.kind,
            member_uuid: member.identity.uuid,
            role: proposed.role,
            tag_ids: proposed.tag_ids,
            status: "pending",
            requested_by_uuid: actor.uuid,
            created_at: at.toISOString(),
            expires_at: new Date(at.getTime() + Duration.toMillis(APPROVAL_REQUEST_LIFETIME)).toISOString(),
            decided_by_uuid: null,
            decided_at: null
          }
          yield* approvals.insert(request)
          yield* events.publish(
            organizationId,
            actor.uuid,
            body.kind === "role_change" ? "organization.role_change.requested.v1" : "organization.tag_change.requested.v1",
            requestData(request, body.kind === "role_change" ? ["role"] : ["tags"])
          )
          return request
        }).pipe(transaction),
      list: (actor: AuthenticatedIdentity, organizationId: string, limit: number, after: Option.Option<ApprovalPosition>) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "admin")
          const page = pageOf(
            yield* approvals.pageOf(organizationId, limit, after, yield* now),
            limit,
            (request): ApprovalPosition => [Date.parse(request.created_at), request.id]
          )
          return { items: page.items, next_cursor: page.nextCursor }
        }),
      read: (actor: AuthenticatedIdentity, organizationId: string, id: string) =>
        Effect.zipRight(access.read(organizationId, actor.uuid, "admin"), Effect.flatMap(now, (at) => requestOf(organizationId, id, at))),
      /**
       * Another admin or the owner approves or rejects a pending request. An approval applies the
       * change with its usual events after approval.decided, in the same transaction; approving a
       * role change is an authorization change (`confirm`, the step-up), spent only then.
       */
      decide: <E, R>(actor: AuthenticatedIdentity, organizationId: string, id: string, decision: Decision, confirm: Effect.Effect<void, E, R>) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const at = yield* now
          const request = yield* requestOf(organizationId, id, at)
          if (request.status === "expired") {
            return yield* new ApprovalRequestExpired({ message: "This request expired before its decision; ask again." })
          }
          if (request.status !== "pending") {
            return yield* new ApprovalRequestNotPending({ message: "This request is already decided.", details: { status: request.status } })
          }
          if (actor.uuid === request.requested_by_uuid || actor.uuid === request.member_uuid) {
            return yield* new OwnDecisionRefused({
              message: "Neither the requester nor the member a request is about may decide it: another admin or the owner does."
            })
          }
          const approve = decision === "approve"
          const member = approve ? yield* members.activeMember(organizationId, request.member_uuid) : undefined
          const body: NewApprovalRequest | undefined = member === undefined
            ? undefined
            : request.kind === "role_change"
            ? { kind: "role_change", member_uuid: request.member_uuid, role: request.role ?? "member" }
            : { kind: "tag_change", member_uuid: request.member_uuid, tag_ids: request.tag_ids ?? [] }
          const proposed = member === undefined || body === undefined ? undefined : yield* proposal(organizationId, member, body)
          if (approve && request.kind === "role_change") yield* confirm
          yield* approvals.decide(request.id, approve ? "approved" : "rejected", actor.uuid, at)
          const decided = yield* requestOf(organizationId, id, at)
          yield* events.publish(organizationId, actor.uuid, "organization.approval.decided.v1", () =>
            Effect.succeed({ changed: ["status"], current: { resource: decided }, decision: decided.status }))
          if (member !== undefined && proposed?.changes === true) {
            const extra = { approval_request_id: request.id }
            if (proposed.role !== null) yield* members.applyRole(actor.uuid, organizationId, member, proposed.role, extra)
            if (proposed.tag_ids !== null) yield* tags.applyTags(actor.uuid, organizationId, member, proposed.tag_ids, extra)
          }
          return decided
        }).pipe(transaction)
    }
  }),
  dependencies: [ApprovalsRepo.Default, Members.Default, Tags.Default, OrganizationAccess.Default, OrganizationEvents.Default]
}) {}
