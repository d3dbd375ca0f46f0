import { SqlClient } from "@effect/sql"
import { AccountsDirectory, AccountNotFound } from "@platform/accounts-identity-api"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { pageOf } from "@platform/http"
import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { LIFETIMES } from "../lifetimes.ts"
import {
  AlreadyMember,
  CarbonRequired,
  InvitationExists,
  InvitationExpired,
  InvitationNotFound,
  InvitationNotPending
} from "./errors.ts"
import { membersData } from "./eventData.ts"
import type { Invitation } from "./Invitation.ts"
import { type Invitee, type InvitationPosition, type InvitationRow, InvitationsRepo, toInvitation } from "./InvitationsRepo.ts"
import { inviteeAddress } from "./inviteeAddress.ts"
import { MembersRepo } from "./MembersRepo.ts"
import type { GrantedRole } from "./Organization.ts"
import { OrganizationAccess } from "./OrganizationAccess.ts"
import { OrganizationEvents } from "./OrganizationEvents.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"

export const newInvitationId = () => randomToken("inv_", 16)

const notFound = () => new InvitationNotFound({ message: "No invitation with this id is addressed to you." })

const page = (rows: ReadonlyArray<InvitationRow>, limit: number, at: Date) => {
  const { items, nextCursor } = pageOf(rows, limit, (row): InvitationPosition => [row.created_at.getTime(), row.id])
  return { items: items.map((row) => toInvitation(row, at)), next_cursor: nextCursor }
}

/**
 * Invitations of Carbons (decisions.md, "Invitations"): by email, matched at acceptance against
 * the invitee's verified emails as accounts has them now, or by `c:` id; 48 hours; accepted or
 * declined by the invitee, revoked by an admin.
 */
export class Invitations extends Effect.Service<Invitations>()("iam/Invitations", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const invitations = yield* InvitationsRepo
    const members = yield* MembersRepo
    const organizations = yield* OrganizationsRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents
    const directory = yield* AccountsDirectory

    /** The active Carbon holding this `c:` id now; a deleted one is as unknown. */
    const activeCarbon = (carbonId: string) =>
      Effect.flatMap(directory.carbonById(carbonId), (carbon) =>
        carbon.status === "active"
          ? Effect.succeed(carbon)
          : Effect.fail(new AccountNotFound({ message: `No active Carbon holds the id ${carbonId}.` })))

    const resourceData = (invitation: Invitation, changed: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => () =>
      Effect.succeed({ changed, current: { resource: invitation }, ...extra })

    /** The caller's verified emails, lower-cased, as accounts has them now (a Carbon it does not know has none). */
    const verifiedEmailsOf = (actor: AuthenticatedIdentity) =>
      directory.byUuid(actor.uuid).pipe(
        Effect.map((identity) => identity.kind === "carbon" ? identity.verified_emails.map((email) => email.toLowerCase()) : []),
        Effect.catchTag("AccountNotFound", () => Effect.succeed([] as ReadonlyArray<string>))
      )

    /** The invitation when it is addressed to the caller (by uuid, or by one of its verified emails); else not found. */
    const addressedTo = (actor: AuthenticatedIdentity, id: string) =>
      Effect.gen(function*() {
        if (actor.kind !== "carbon") return yield* notFound()
        const found = yield* invitations.find(id)
        if (Option.isNone(found)) return yield* notFound()
        const { invitee_email, invitee_uuid } = found.value
        const mine = invitee_uuid === actor.uuid ||
          (invitee_email !== null && (yield* verifiedEmailsOf(actor)).includes(invitee_email))
        return mine ? found.value : yield* notFound()
      })

    /** Inside the transaction, with the organization locked: still pending and unexpired. */
    const stillPending = (id: string, at: Date) =>
      Effect.gen(function*() {
        const row = Option.getOrThrow(yield* invitations.find(id))
        const invitation = toInvitation(row, at)
        if (invitation.status === "expired") {
          return yield* new InvitationExpired({ message: "This invitation expired: invitations last 48 hours." })
        }
        if (invitation.status !== "pending") {
          return yield* new InvitationNotPending({
            message: `This invitation was already ${invitation.status}.`,
            details: { status: invitation.status }
          })
        }
        return row
      })

    const end = (actor: AuthenticatedIdentity, row: InvitationRow, status: "declined" | "revoked") =>
      Effect.gen(function*() {
        yield* stillPending(row.id, yield* now)
        const ended = toInvitation(yield* invitations.decide(row.id, status, actor.uuid, yield* now), yield* now)
        // Spec 2 has no "declined" event: a declined invitation is revoked by its invitee.
        yield* events.publish(
          row.organization_id,
          actor.uuid,
          "organization.invitation.revoked.v1",
          resourceData(ended, ["status"], { reason: status })
        )
        return ended
      })

    return {
      /** An admin invites a Carbon by email or `c:` id, as admin or member. */
      invite: (actor: AuthenticatedIdentity, organizationId: string, request: { readonly to: string; readonly role?: GrantedRole | undefined }) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "admin")
          const address = yield* inviteeAddress(request.to)
          const invitee: Invitee = "carbonId" in address
            ? yield* Effect.map(activeCarbon(address.carbonId), (carbon) => ({ uuid: carbon.uuid, id: carbon.id ?? address.carbonId }))
            : { email: address.email }
          return yield* transaction(Effect.gen(function*() {
            yield* access.change(organizationId, actor.uuid, "admin")
            const at = yield* now
            if ("uuid" in invitee && Option.isSome(yield* members.roleOf(organizationId, invitee.uuid))) {
              return yield* new AlreadyMember({ message: `${invitee.id} is already a member of this organization.` })
            }
            const pending = yield* invitations.pendingFor(organizationId, invitee, at)
            if (Option.isSome(pending)) {
              return yield* new InvitationExists({
                message: "A pending invitation for this invitee exists: revoke it first to send another.",
                details: { invitation_id: pending.value }
              })
            }
            const invitation = toInvitation(
              yield* invitations.insert({
                id: newInvitationId(),
                organizationId,
                invitee,
                role: request.role ?? "member",
                invitedBy: actor.uuid,
                at,
                expiresAt: new Date(at.getTime() + Duration.toMillis(LIFETIMES.invitation))
              }),
              at
            )
            yield* events.publish(organizationId, actor.uuid, "organization.invitation.created.v1", resourceData(invitation, ["status"]))
            return invitation
          }))
        }),
      /** Every invitation of the organization (admins), oldest first, with its status now. */
      listOfOrganization: (actor: AuthenticatedIdentity, organizationId: string, limit: number, after: Option.Option<InvitationPosition>) =>
        Effect.gen(function*() {
          yield* access.read(organizationId, actor.uuid, "admin")
          return page(yield* invitations.pageOfOrganization(organizationId, limit, after), limit, yield* now)
        }),
      /** The caller's pending invitations: to its uuid or to any of its verified emails. */
      listMine: (actor: AuthenticatedIdentity, limit: number, after: Option.Option<InvitationPosition>) =>
        Effect.gen(function*() {
          if (actor.kind !== "carbon") return { items: [], next_cursor: null }
          const at = yield* now
          return page(yield* invitations.pageOfInvitee(actor.uuid, yield* verifiedEmailsOf(actor), at, limit, after), limit, at)
        }),
      /** The invitee joins with the invitation's role (a removed member comes back: reactivated). */
      accept: (actor: AuthenticatedIdentity, id: string) =>
        Effect.gen(function*() {
          if (actor.kind !== "carbon") return yield* new CarbonRequired({ message: "Only a Carbon may accept an invitation." })
          const row = yield* addressedTo(actor, id)
          return yield* transaction(Effect.gen(function*() {
            yield* organizations.lock(row.organization_id)
            if (Option.isSome(yield* members.roleOf(row.organization_id, actor.uuid))) {
              return yield* new AlreadyMember({ message: "You are already a member of this organization." })
            }
            const at = yield* now
            yield* stillPending(id, at)
            const accepted = toInvitation(yield* invitations.decide(id, "accepted", actor.uuid, at), at)
            const returning = Option.isSome(yield* members.find(row.organization_id, actor.uuid))
            const member = yield* members.add({
              organizationId: row.organization_id,
              identityUuid: actor.uuid,
              role: row.role,
              addedBy: row.invited_by,
              at
            })
            yield* events.publish(row.organization_id, actor.uuid, "organization.invitation.accepted.v1", resourceData(accepted, ["status"]))
            yield* events.publish(
              row.organization_id,
              actor.uuid,
              returning ? "organization.membership.reactivated.v1" : "organization.membership.created.v1",
              membersData([member], returning ? ["status", "role"] : ["role", "status"])
            )
            return { invitation: accepted, member }
          }))
        }),
      decline: (actor: AuthenticatedIdentity, id: string) =>
        Effect.flatMap(addressedTo(actor, id), (row) =>
          transaction(Effect.zipRight(organizations.lock(row.organization_id), end(actor, row, "declined")))),
      /** An admin withdraws a pending invitation. */
      revoke: (actor: AuthenticatedIdentity, organizationId: string, id: string) =>
        transaction(Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const found = yield* invitations.find(id)
          if (Option.isNone(found) || found.value.organization_id !== organizationId) {
            return yield* new InvitationNotFound({ message: "This organization has no invitation with this id." })
          }
          return yield* end(actor, found.value, "revoked")
        }))
    }
  }),
  dependencies: [InvitationsRepo.Default, MembersRepo.Default, OrganizationsRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default]
}) {}
