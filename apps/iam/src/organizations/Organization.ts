import { parameterProblem } from "@platform/http"
import { Schema } from "effect"
import { IdentityKind } from "../identities/Identity.ts"

export const MembershipRole = Schema.Literal("owner", "admin", "member").annotations({
  description: "owner (one per organization, a Carbon); admin (manages members, invitations and Silicons); member"
})
export type MembershipRole = typeof MembershipRole.Type

/** A role that can be given: the owner's is only ever passed on by a transfer. */
export const GrantedRole = Schema.Literal("admin", "member")
export type GrantedRole = typeof GrantedRole.Type

const RANK: Record<MembershipRole, number> = { member: 0, admin: 1, owner: 2 }
export const atLeast = (role: MembershipRole, minimum: MembershipRole): boolean => RANK[role] >= RANK[minimum]

const noControlCharacters = (text: string) => parameterProblem(text) ?? true

export const OrganizationName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "must be 1 to 100 characters" }),
  Schema.maxLength(100, { message: () => "must be 1 to 100 characters" }),
  Schema.filter(noControlCharacters)
).annotations({ description: "1 to 100 characters, no control characters; trimmed" })

export const OrganizationDescription = Schema.Trim.pipe(
  Schema.maxLength(1000, { message: () => "must be at most 1000 characters" }),
  Schema.filter((text) => /[\u0000\u007f]/.test(text) ? "must not contain NUL or DEL" : true)
).annotations({ description: "Up to 1000 characters; trimmed; empty clears it" })

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

export const GovernanceSettings = Schema.Struct({
  role_changes_need_approval: Schema.Boolean.annotations({
    description: "When true, an admin's role change is a request another admin or the owner decides"
  }),
  tag_changes_need_approval: Schema.Boolean.annotations({
    description: "When true, a change of a member's tags is a request another admin or the owner decides"
  })
}).annotations({ identifier: "GovernanceSettings" })
export type GovernanceSettings = typeof GovernanceSettings.Type

export const Organization = Schema.Struct({
  id: Schema.String.annotations({ description: "org_ and 22 base64url characters" }),
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  owner_uuid: Schema.String.annotations({ description: "The owner's identity uuid (a Carbon)" }),
  version: Schema.Int.annotations({ description: "Raised by every change to the organization or its members and invitations" }),
  created_at: Timestamp,
  updated_at: Timestamp.annotations({ description: "When the name, description or governance settings last changed" }),
  governance: GovernanceSettings
}).annotations({ identifier: "Organization" })
export type Organization = typeof Organization.Type

/** An organization as one of its members sees it: with their role. */
export const MyOrganization = Schema.Struct({ organization: Organization, role: MembershipRole }).annotations({
  identifier: "MyOrganization"
})
export type MyOrganization = typeof MyOrganization.Type

export const MemberIdentity = Schema.Struct({
  uuid: Schema.String,
  id: Schema.String.annotations({ description: "c:… or si:…, as IAM last saw it" }),
  kind: IdentityKind,
  display_name: Schema.String
}).annotations({ identifier: "MemberIdentity" })

export const Member = Schema.Struct({
  organization_id: Schema.String,
  identity: MemberIdentity,
  role: MembershipRole,
  tags: Schema.Array(Schema.String).annotations({ description: "The ids of the organization's tags the member carries, sorted" }),
  status: Schema.Literal("active", "removed"),
  joined_at: Timestamp,
  updated_at: Timestamp,
  removed_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Member" })
export type Member = typeof Member.Type
