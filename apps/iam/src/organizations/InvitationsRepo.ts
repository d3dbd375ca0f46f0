import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Invitation } from "./Invitation.ts"
import type { GrantedRole } from "./Organization.ts"

export interface InvitationRow {
  readonly id: string
  readonly organization_id: string
  readonly organization_name: string
  readonly invitee_email: string | null
  readonly invitee_uuid: string | null
  readonly invitee_id: string | null
  readonly role: GrantedRole
  readonly status: "pending" | "accepted" | "declined" | "revoked"
  readonly invited_by: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly decided_at: Date | null
}

/** An invitation as it reads at `at`: a pending one past its 48 hours reads expired. */
export const toInvitation = (row: InvitationRow, at: Date): Invitation => ({
  id: row.id,
  organization: { id: row.organization_id, name: row.organization_name },
  invitee: { email: row.invitee_email, uuid: row.invitee_uuid, id: row.invitee_id },
  role: row.role,
  status: row.status === "pending" && row.expires_at <= at ? "expired" : row.status,
  invited_by_uuid: row.invited_by,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  decided_at: row.decided_at?.toISOString() ?? null
})

/** Who an invitation is for: an email address (lower-cased) or a Carbon. */
export type Invitee =
  | { readonly email: string }
  | { readonly uuid: string; readonly id: string }

/** A page position: by creation time (milliseconds), then id. */
export type InvitationPosition = readonly [createdAtMillis: number, id: string]

/** Invitations of Carbons into organizations. */
export class InvitationsRepo extends Effect.Service<InvitationsRepo>()("iam/InvitationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const selectInvitations = sql`
      select i.id, i.organization_id, o.name as organization_name, i.invitee_email, i.invitee_uuid, i.invitee_id, i.role,
        i.status, i.invited_by, i.created_at, i.expires_at, i.decided_at
      from organization_invitations i join organizations o on o.id = i.organization_id
    `
    const after = (position: Option.Option<InvitationPosition>) =>
      Option.match(position, {
        onNone: () => sql``,
        onSome: ([millis, id]) => sql`and (i.created_at, i.id) > (${new Date(millis)}, ${id})`
      })
    const find = (id: string) =>
      sql<InvitationRow>`${selectInvitations} where i.id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    return {
      find,
      insert: (invitation: {
        readonly id: string
        readonly organizationId: string
        readonly invitee: Invitee
        readonly role: GrantedRole
        readonly invitedBy: string
        readonly at: Date
        readonly expiresAt: Date
      }) => {
        const { invitee } = invitation
        return Effect.zipRight(
          sql`
            insert into organization_invitations
              (id, organization_id, invitee_email, invitee_uuid, invitee_id, role, status, invited_by, created_at, expires_at)
            values (${invitation.id}, ${invitation.organizationId}, ${"email" in invitee ? invitee.email : null},
              ${"uuid" in invitee ? invitee.uuid : null}, ${"id" in invitee ? invitee.id : null}, ${invitation.role}, 'pending',
              ${invitation.invitedBy}, ${invitation.at}, ${invitation.expiresAt})
          `.pipe(Effect.orDie),
          Effect.map(find(invitation.id), Option.getOrThrow)
        )
      },
      /** A pending, unexpired invitation of the organization for the same invitee, if there is one. */
      pendingFor: (organizationId: string, invitee: Invitee, at: Date) =>
        sql<{ readonly id: string }>`
          select id from organization_invitations
          where organization_id = ${organizationId} and status = 'pending' and expires_at > ${at}
            and ${"email" in invitee ? sql`invitee_email = ${invitee.email}` : sql`invitee_uuid = ${invitee.uuid}`}
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.id)), Effect.orDie),
      /** Accepted, declined or revoked, once: only a pending one moves; the invitation as it is now. */
      decide: (id: string, status: "accepted" | "declined" | "revoked", by: string, at: Date) =>
        Effect.zipRight(
          sql`
            update organization_invitations set status = ${status}, decided_at = ${at}, decided_by = ${by}
            where id = ${id} and status = 'pending'
          `.pipe(Effect.orDie),
          Effect.map(find(id), Option.getOrThrow)
        ),
      pageOfOrganization: (organizationId: string, limit: number, position: Option.Option<InvitationPosition>) =>
        sql<InvitationRow>`
          ${selectInvitations}
          where i.organization_id = ${organizationId} ${after(position)}
          order by i.created_at, i.id
          limit ${limit + 1}
        `.pipe(Effect.orDie),
      /** Pending, unexpired invitations for this Carbon: by its uuid or any of its verified emails (lower-cased). */
      pageOfInvitee: (uuid: string, emails: ReadonlyArray<string>, at: Date, limit: number, position: Option.Option<InvitationPosition>) =>
        sql<InvitationRow>`
          ${selectInvitations}
          where i.status = 'pending' and i.expires_at > ${at}
            and (i.invitee_uuid = ${uuid} ${emails.length === 0 ? sql`` : sql`or i.invitee_email in ${sql.in(emails)}`})
            ${after(position)}
          order by i.created_at, i.id
          limit ${limit + 1}
        `.pipe(Effect.orDie)
    }
  })
}) {}
