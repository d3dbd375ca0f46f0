import { Schema } from "effect"
import { GrantedRole, Member } from "./Organization.ts"

export const InvitationStatus = Schema.Literal("pending", "accepted", "declined", "revoked", "expired").annotations({
  description: "pending for 48 hours, then expired unless accepted, declined (by the invitee) or revoked (by an admin)"
})
export type InvitationStatus = typeof InvitationStatus.Type

export const Invitation = Schema.Struct({
  id: Schema.String.annotations({ description: "inv_ and 22 base64url characters" }),
  organization: Schema.Struct({ id: Schema.String, name: Schema.String }),
  invitee: Schema.Struct({
    email: Schema.NullOr(Schema.String).annotations({
      description: "Invited by email: a Carbon on which this address is verified may accept"
    }),
    uuid: Schema.NullOr(Schema.String).annotations({ description: "Invited by c: id: that Carbon's uuid" }),
    id: Schema.NullOr(Schema.String).annotations({ description: "Invited by c: id: the id it had then" })
  }),
  role: GrantedRole,
  status: InvitationStatus,
  invited_by_uuid: Schema.String,
  created_at: Schema.String,
  expires_at: Schema.String,
  decided_at: Schema.NullOr(Schema.String).annotations({ description: "When it was accepted, declined or revoked" })
}).annotations({ identifier: "Invitation" })
export type Invitation = typeof Invitation.Type

export const NewInvitation = Schema.Struct({
  to: Schema.String.pipe(Schema.maxLength(320)).annotations({
    description: "An email address (matched, at acceptance, against the invitee's verified emails) or a Carbon's c: id"
  }),
  role: Schema.optional(GrantedRole.annotations({ description: "The role on acceptance; default member" }))
}).annotations({ identifier: "NewInvitation" })

export const AcceptedInvitation = Schema.Struct({ invitation: Invitation, member: Member }).annotations({
  identifier: "AcceptedInvitation"
})
