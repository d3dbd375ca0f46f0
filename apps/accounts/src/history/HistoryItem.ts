import { Schema } from "effect"

/** The kinds of GET /v1/me/history (spec 1, Account management). */
export const HistoryKind = Schema.Literal("signin", "id_change", "custodian", "proof", "app_access", "security")
export type HistoryKind = typeof HistoryKind.Type

const OccurredAt = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
const entry = <K extends HistoryKind, F extends Schema.Struct.Fields>(kind: K, identifier: string, fields: F) =>
  Schema.Struct({ kind: Schema.Literal(kind), occurred_at: OccurredAt, ...fields }).annotations({ identifier })

export const SigninEntry = entry("signin", "HistorySignin", {
  signin_id: Schema.String,
  client_id: Schema.String.annotations({ description: "The app signed in to; accounts or developer for first-party sign-ins" }),
  app_name: Schema.NullOr(Schema.String),
  method: Schema.String.annotations({ description: "How the account signed in (hosted, cli_code, device_code, stk, …)" }),
  client_label: Schema.NullOr(Schema.String)
})

export const IdChangeEntry = entry("id_change", "HistoryIdChange", { old_id: Schema.String, new_id: Schema.String })

export const CustodianEntry = entry("custodian", "HistoryCustodian", {
  request_id: Schema.String,
  request_kind: Schema.Literal("initial", "transfer"),
  status: Schema.Literal("accepted", "declined", "expired", "cancelled"),
  silicon_uuid: Schema.String,
  from_uuid: Schema.NullOr(Schema.String),
  to_uuid: Schema.NullOr(Schema.String)
})

export const AppAccessEntry = entry("app_access", "HistoryAppAccess", {
  action: Schema.Literal("granted", "access_removed", "signed_out").annotations({
    description: "granted: the membership began (first sign-in or import)"
  }),
  app_id: Schema.String,
  app_name: Schema.NullOr(Schema.String)
})

export const SecurityEntry = entry("security", "HistorySecurity", {
  action: Schema.Literal("session_revoked", "stk_rotated", "key_added", "key_revoked"),
  subject_id: Schema.NullOr(Schema.String).annotations({ description: "The sign-in or key concerned; null for an STK rotation" }),
  reason: Schema.NullOr(Schema.String).annotations({ description: "Why a sign-in was revoked; a key's name for key moves" })
})

/** One entry of the account's history; `kind` tells its fields. Proof entries come with proofs. */
export const HistoryItem = Schema.Union(SigninEntry, IdChangeEntry, CustodianEntry, AppAccessEntry, SecurityEntry)
  .annotations({ identifier: "HistoryItem" })
export type HistoryItem = typeof HistoryItem.Type

/** Keyset position (newest first): occurred_at in epoch microseconds, then the entry's key. */
export const HistoryPosition = Schema.Tuple(Schema.String.pipe(Schema.pattern(/^\d{1,18}$/)), Schema.String)
