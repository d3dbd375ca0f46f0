import { columnsOf } from "@platform/database"
import { strict } from "@platform/http"
import { Duration, Schema } from "effect"
import { formatAccountId } from "../accounts/AccountId.ts"
import { membershipId } from "../oauth/AppAccount.ts"

/** Spec 1, Limits: proof tokens 60 to 1800 seconds (default 1800); a proof's refresh 900 days. */
export const DEFAULT_ACCESS_TTL_SECONDS = 1800
export const PROOF_REFRESH_LIFETIME = Duration.days(900)
export const PROOF_TOKEN_PREFIX = "sap_"
export const PROOF_REFRESH_TOKEN_PREFIX = "sapr_"

export const ProofKind = Schema.Literal("user_verification", "app_verification")
export const ProofStatus = Schema.Literal("active", "revoked", "expired")
export type ProofStatus = typeof ProofStatus.Type
export const RevokeReason = Schema.Literal(
  "revoked_by_app",
  "revoked_by_owner",
  "revoked_by_account",
  "refresh_token_reuse",
  "sign_in_revoked",
  "access_removed",
  "account_deleted",
  "account_inactive",
  "membership_inactive"
)
export type RevokeReason = typeof RevokeReason.Type

const PROOF_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** Whether `id` can be a proof id (a lowercase uuid); anything else is 400 invalid_proof_id. */
export const isProofId = (id: string) => PROOF_ID.test(id)

const Scope = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_.:/-]{1,100}$/)).annotations({
  description: "1 to 100 characters of A-Z a-z 0-9 _ . : / -"
})
const Scopes = Schema.Array(Scope).pipe(Schema.maxItems(20)).annotations({ description: "At most 20 distinct scopes" })
const AccessTtl = Schema.Int.pipe(Schema.between(60, 1800)).annotations({ description: "Proof token lifetime, 60 to 1800 seconds; default 1800" })
const AppIdField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))
const TokenField = (description: string) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({ description })

export const UserVerificationRequest = strict(Schema.Struct({
  subject_token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8192)).annotations({
    description: "An access token the calling app itself received for the account"
  }),
  receiving_app: AppIdField.annotations({ description: "The one app the proof is for" }),
  scopes: Schema.optional(Scopes),
  access_ttl_seconds: Schema.optional(AccessTtl)
})).annotations({ identifier: "UserVerificationRequest" })

export const AppVerificationRequest = strict(Schema.Struct({
  receiving_app: AppIdField.annotations({ description: "The one app the proof is for" }),
  scopes: Schema.optional(Scopes),
  access_ttl_seconds: Schema.optional(AccessTtl),
  audiences: Schema.optional(Schema.Any.annotations({
    jsonSchema: { description: "Not accepted: an App verification proof names exactly one receiving app (422 app_verification_single_app)" }
  }))
})).annotations({ identifier: "AppVerificationRequest" })

export const ProofRefreshRequest = strict(Schema.Struct({
  proof_refresh_token: TokenField("The sapr_ refresh token; it rotates, and a used one presented again revokes the proof"),
  access_ttl_seconds: Schema.optional(AccessTtl)
})).annotations({ identifier: "ProofRefreshRequest" })

export const ProofRevokeRequest = strict(Schema.Struct({
  proof_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
  proof_token: Schema.optional(TokenField("A sap_ token of the proof")),
  proof_refresh_token: Schema.optional(TokenField("A sapr_ refresh token of the proof"))
})).annotations({ identifier: "ProofRevokeRequest", description: "Exactly one of proof_id, proof_token, proof_refresh_token" })

/** Any JSON value: verification always answers 200, a malformed input with an `x-accounts-hint` header. */
export const ProofVerifyRequest = Schema.Unknown.annotations({
  identifier: "ProofVerifyRequest",
  jsonSchema: { type: "object", properties: { proof_token: { type: "string", description: "The sap_ token received" } } }
})

export const ProofUser = Schema.Struct({
  uuid: Schema.String,
  id: Schema.NullOr(Schema.String),
  kind: Schema.Literal("carbon", "silicon"),
  membership_id: Schema.String.annotations({ description: "The account's membership with the issuing app" })
}).annotations({ identifier: "ProofUser" })

export const IssuedProof = Schema.Struct({
  proof_id: Schema.String,
  kind: ProofKind,
  proof_token: Schema.String.annotations({ description: "sap_ token, shown only here" }),
  expires_at: Schema.String.annotations({ description: "When the proof token expires" }),
  proof_refresh_token: Schema.String.annotations({ description: "sapr_ token, shown only here" }),
  refresh_expires_at: Schema.String.annotations({ description: "900 days; a User verification proof never outlives its sign-in" }),
  issuing_app: Schema.String,
  receiving_app: Schema.String,
  user: Schema.NullOr(ProofUser),
  scopes: Schema.Array(Schema.String),
  access_ttl_seconds: Schema.Int
}).annotations({ identifier: "IssuedProof" })
export type IssuedProof = typeof IssuedProof.Type

const AppName = Schema.Struct({ app_id: Schema.String, name: Schema.String })

export const ValidProof = Schema.Struct({
  valid: Schema.Literal(true),
  proof_id: Schema.String,
  kind: ProofKind,
  expires_at: Schema.String,
  issuing_app: AppName,
  receiving_app: AppName,
  user: Schema.NullOr(ProofUser),
  scopes: Schema.Array(Schema.String)
}).annotations({ identifier: "ValidProof" })
export const InvalidProof = Schema.Struct({ valid: Schema.Literal(false), expires_at: Schema.Null })
  .annotations({ identifier: "InvalidProof" })
export const ProofVerification = Schema.Union(ValidProof, InvalidProof).annotations({ identifier: "ProofVerification" })
export type ProofVerification = typeof ProofVerification.Type

export const ProofListItem = Schema.Struct({
  proof_id: Schema.String,
  kind: ProofKind,
  issuing_app: Schema.String,
  receiving_app: Schema.String,
  user: Schema.NullOr(ProofUser),
  scopes: Schema.Array(Schema.String),
  status: ProofStatus,
  access_ttl_seconds: Schema.Int,
  created_at: Schema.String,
  expires_at: Schema.String.annotations({ description: "When the proof ends (its refresh_expires_at)" }),
  token_expires_at: Schema.String.annotations({ description: "When its newest proof token expires" }),
  last_refreshed_at: Schema.NullOr(Schema.String),
  revoked_at: Schema.NullOr(Schema.String),
  revoke_reason: Schema.NullOr(RevokeReason)
}).annotations({ identifier: "ProofListItem" })
export type ProofListItem = typeof ProofListItem.Type

/** A proof as stored, with its account's id parts and its settled state. */
export const ProofRow = Schema.Struct({
  id: Schema.String,
  kind: ProofKind,
  issuing_app: Schema.String,
  receiving_app: Schema.String,
  account_uuid: Schema.NullOr(Schema.String),
  signin_id: Schema.NullOr(Schema.String),
  scopes: Schema.Array(Schema.String),
  access_ttl_seconds: Schema.Int,
  created_at: Schema.DateFromSelf,
  token_expires_at: Schema.DateFromSelf,
  refresh_expires_at: Schema.DateFromSelf,
  last_refreshed_at: Schema.NullOr(Schema.DateFromSelf),
  revoked_at: Schema.NullOr(Schema.DateFromSelf),
  revoke_reason: Schema.NullOr(RevokeReason),
  account_kind: Schema.NullOr(Schema.Literal("carbon", "silicon")),
  account_handle: Schema.NullOr(Schema.String)
})
export type ProofRow = typeof ProofRow.Type

const { account_handle: _handle, account_kind: _kind, ...storedFields } = ProofRow.fields
/** ProofRow's columns over `proofs p LEFT JOIN accounts a ON a.uuid = p.account_uuid`. */
export const PROOF_COLUMNS = `${columnsOf(storedFields, "p")}, a.kind AS account_kind, a.handle AS account_handle`

export const userOf = (row: ProofRow): typeof ProofUser.Type | null =>
  row.account_uuid === null || row.account_kind === null
    ? null
    : {
      uuid: row.account_uuid,
      id: row.account_handle === null ? null : formatAccountId({ kind: row.account_kind, handle: row.account_handle }),
      kind: row.account_kind,
      membership_id: membershipId(row.issuing_app, row.account_uuid)
    }

export const statusOf = (row: ProofRow, now: Date): ProofStatus =>
  row.revoked_at !== null ? "revoked" : row.refresh_expires_at.getTime() <= now.getTime() ? "expired" : "active"

export const listItemOf = (row: ProofRow, now: Date): ProofListItem => ({
  proof_id: row.id,
  kind: row.kind,
  issuing_app: row.issuing_app,
  receiving_app: row.receiving_app,
  user: userOf(row),
  scopes: row.scopes,
  status: statusOf(row, now),
  access_ttl_seconds: row.access_ttl_seconds,
  created_at: row.created_at.toISOString(),
  expires_at: row.refresh_expires_at.toISOString(),
  token_expires_at: row.token_expires_at.toISOString(),
  last_refreshed_at: row.last_refreshed_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
  revoke_reason: row.revoke_reason
})

export const issuedProofOf = (row: ProofRow, tokens: { readonly token: string; readonly refreshToken: string }): IssuedProof => ({
  proof_id: row.id,
  kind: row.kind,
  proof_token: tokens.token,
  expires_at: row.token_expires_at.toISOString(),
  proof_refresh_token: tokens.refreshToken,
  refresh_expires_at: row.refresh_expires_at.toISOString(),
  issuing_app: row.issuing_app,
  receiving_app: row.receiving_app,
  user: userOf(row),
  scopes: row.scopes,
  access_ttl_seconds: row.access_ttl_seconds
})
