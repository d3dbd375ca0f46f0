import { parameterProblem } from "@platform/http"
import { Schema } from "effect"
import { GrantedRole } from "../organizations/Organization.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
const noControlCharacters = (text: string) => parameterProblem(text) ?? true

/** At most this many tags per organization. */
export const MAX_TAGS = 100
/** At most this many active trust rules per organization. */
export const MAX_TRUST_RULES = 500

export const TagName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "must be 1 to 50 characters" }),
  Schema.maxLength(50, { message: () => "must be 1 to 50 characters" }),
  Schema.filter(noControlCharacters)
).annotations({ description: "1 to 50 characters, no control characters; trimmed; unique in the organization regardless of case" })

export const Note = Schema.Trim.pipe(
  Schema.maxLength(500, { message: () => "must be at most 500 characters" }),
  Schema.filter((text) => /[\u0000\u007f]/.test(text) ? "must not contain NUL or DEL" : true)
).annotations({ description: "Up to 500 characters; trimmed; null or empty clears it" })

export const Tag = Schema.Struct({
  id: Schema.String.annotations({ description: "tag_ and 22 base64url characters" }),
  organization_id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "OrganizationTag" })
export type Tag = typeof Tag.Type

export const TagIds = Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(
  Schema.maxItems(MAX_TAGS, { message: () => `must hold at most ${MAX_TAGS} tag ids` })
).annotations({ description: "Ids of the organization's tags; repeats count once" })

export const TrustLevel = Schema.Literal("blocked", "neutral", "trusted").annotations({
  description: "blocked (do not deal with them), neutral (no stance), trusted (deal with them as with one of ours)"
})
export type TrustLevel = typeof TrustLevel.Type

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export const TrustSubject = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("organization"),
    value: Schema.String.pipe(Schema.pattern(/^org_[A-Za-z0-9_-]{1,96}$/, { message: () => "must be an organization id (org_…)" }))
  }),
  Schema.Struct({
    kind: Schema.Literal("identity"),
    value: Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9-]{1,100}$/, { message: () => "must be an identity uuid" })
    )
  }),
  Schema.Struct({
    kind: Schema.Literal("email_domain"),
    value: Schema.Lowercase.pipe(
      Schema.compose(Schema.Trim),
      Schema.pattern(DOMAIN, { message: () => "must be a domain name such as example.com" })
    )
  })
).annotations({
  identifier: "TrustSubject",
  description: "Who the rule is about: another organization (its id), an identity (its uuid) or everyone with a verified address at an email domain (lower-cased)"
})
export type TrustSubject = typeof TrustSubject.Type

export const TrustRule = Schema.Struct({
  id: Schema.String.annotations({ description: "trr_ and 22 base64url characters" }),
  organization_id: Schema.String,
  subject: Schema.Struct({ kind: Schema.Literal("organization", "identity", "email_domain"), value: Schema.String }),
  level: TrustLevel,
  note: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "archived"),
  created_at: Timestamp,
  updated_at: Timestamp,
  archived_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "TrustRule" })
export type TrustRule = typeof TrustRule.Type

export const TrustPolicy = Schema.Struct({
  organization_id: Schema.String,
  default_level: TrustLevel.annotations({ description: "The level of any party no active rule names (initially neutral)" }),
  rules: Schema.Array(TrustRule).annotations({ description: "The active rules, oldest first" })
}).annotations({ identifier: "TrustPolicy" })

export const ApprovalKind = Schema.Literal("role_change", "tag_change")
export type ApprovalKind = typeof ApprovalKind.Type

export const ApprovalRequest = Schema.Struct({
  id: Schema.String.annotations({ description: "apr_ and 22 base64url characters" }),
  organization_id: Schema.String,
  kind: ApprovalKind,
  member_uuid: Schema.String.annotations({ description: "The member whose role or tags would change" }),
  role: Schema.NullOr(GrantedRole).annotations({ description: "role_change: the role asked for" }),
  tag_ids: Schema.NullOr(Schema.Array(Schema.String)).annotations({ description: "tag_change: the member's whole new set of tags, sorted" }),
  status: Schema.Literal("pending", "approved", "rejected", "expired"),
  requested_by_uuid: Schema.String,
  created_at: Timestamp,
  expires_at: Timestamp.annotations({ description: "7 days after creation; a pending request past it reads expired" }),
  decided_by_uuid: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "ApprovalRequest" })
export type ApprovalRequest = typeof ApprovalRequest.Type

export const NewApprovalRequest = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("role_change"), member_uuid: Schema.String.pipe(Schema.maxLength(100)), role: GrantedRole }),
  Schema.Struct({ kind: Schema.Literal("tag_change"), member_uuid: Schema.String.pipe(Schema.maxLength(100)), tag_ids: TagIds })
).annotations({ identifier: "NewApprovalRequest" })
export type NewApprovalRequest = typeof NewApprovalRequest.Type
