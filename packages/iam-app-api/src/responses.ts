import { Schema } from "effect"

export const SubjectKind = Schema.Literal("carbon", "silicon")
export type SubjectKind = typeof SubjectKind.Type

/** Who an application session speaks for, and where: the fields a live token, session or proof answers with. */
const subjectFields = {
  sub: Schema.String.annotations({ description: "The subject's uuid (the accounts uuid)" }),
  subject_kind: SubjectKind,
  username: Schema.String.annotations({ description: "The subject's accounts id: c:… for a Carbon, si:… for a Silicon" }),
  org_ids: Schema.Array(Schema.String).annotations({
    description: "The organizations chosen at login in which the subject is still a member"
  }),
  scope: Schema.String.annotations({ description: "Space-separated scopes of the session" }),
  session_id: Schema.String.annotations({ description: "The application session (aps_…): one per login of the subject to this application" })
}

/** The token endpoint's answer to an SLT exchange or a refresh (RFC 6749 §5.1, with the session's subject). */
export const ApplicationTokenResponse = Schema.Struct({
  access_token: Schema.String.annotations({ description: "aat_…: 30 minutes; check it by introspection" }),
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int.annotations({ description: "Seconds until the access token expires (1800)" }),
  refresh_token: Schema.String.annotations({ description: "art_…: single use, each refresh rotates it" }),
  session_expires_at: Schema.String.annotations({
    description: "The refresh family's absolute end (900 days after the exchange); it ends earlier with its parent IAM session"
  }),
  ...subjectFields
}).annotations({ identifier: "ApplicationTokenResponse" })
export type ApplicationTokenResponse = typeof ApplicationTokenResponse.Type

const optionalSubject = {
  sub: Schema.optional(subjectFields.sub),
  subject_kind: Schema.optional(SubjectKind),
  username: Schema.optional(subjectFields.username),
  org_ids: Schema.optional(subjectFields.org_ids),
  scope: Schema.optional(subjectFields.scope),
  session_id: Schema.optional(subjectFields.session_id),
  client_id: Schema.optional(Schema.String.annotations({ description: "The application the session belongs to" })),
  exp: Schema.optional(Schema.Int.annotations({ description: "Unix seconds" })),
  iss: Schema.optional(Schema.String.annotations({ description: "IAM's public URL" }))
}

/** RFC 7662 §2.2; anything not live answers `{active: false}` and nothing more. */
export const ApplicationIntrospection = Schema.Struct({
  active: Schema.Boolean,
  ...optionalSubject,
  token_type: Schema.optional(
    Schema.Literal("Bearer", "refresh_token").annotations({ description: "Bearer for an access token, refresh_token for a refresh token" })
  ),
  iat: Schema.optional(Schema.Int.annotations({ description: "Unix seconds" }))
}).annotations({ identifier: "ApplicationIntrospection" })
export type ApplicationIntrospection = typeof ApplicationIntrospection.Type

export const OnBehalfOfProof = Schema.Struct({
  proof: Schema.String.annotations({ description: "obo_…: give it to the audience, which verifies it once within 60 seconds" }),
  expires_in: Schema.Int.annotations({ description: "Seconds the proof stays verifiable (60)" }),
  expires_at: Schema.String,
  audience: Schema.String,
  sub: subjectFields.sub
}).annotations({ identifier: "OnBehalfOfProof" })
export type OnBehalfOfProof = typeof OnBehalfOfProof.Type

/**
 * What verifying a proof answers its audience: active with the acting application (`client_id`), the subject,
 * its organizations and the session's scopes; `{active: false}` for a proof unknown, spent, expired, for
 * another audience, or whose session is no longer live.
 */
export const OnBehalfOfVerification = Schema.Struct({
  active: Schema.Boolean,
  ...optionalSubject
}).annotations({ identifier: "OnBehalfOfVerification" })
export type OnBehalfOfVerification = typeof OnBehalfOfVerification.Type
