import { Schema } from "effect"
import { AccountRow } from "../accounts/AccountRow.ts"
import { summaryJson, SummaryRow } from "../accounts/AccountSummary.ts"

/** Why a deleted Silicon ended: its request was declined, it expired, or its custodian deleted it. */
export const SiliconEnd = Schema.Literal("declined", "expired", "deleted")
export type SiliconEnd = typeof SiliconEnd.Type

/** A Silicon's `accounts` row with its `silicons` row and its custodian's summary. */
export const SiliconRow = Schema.Struct({
  ...AccountRow.fields,
  kind: Schema.Literal("silicon"),
  custodian: Schema.NullOr(SummaryRow),
  webhook_url: Schema.NullOr(Schema.String),
  stk_rotated_at: Schema.DateFromSelf,
  identity_audiences: Schema.Array(Schema.String),
  ended_by: Schema.NullOr(SiliconEnd)
})
export type SiliconRow = typeof SiliconRow.Type

/** The select list of a SiliconRow over `accounts a JOIN silicons s LEFT JOIN accounts c` (c the custodian). */
export const SILICON_COLUMNS = `
  a.uuid, a.kind, a.handle, a.display_name, a.pfp_url, a.dob::text AS dob, a.timezone, a.status,
  a.created_at, a.updated_at, a.version,
  CASE WHEN c.uuid IS NULL THEN NULL ELSE ${summaryJson("c")} END AS custodian,
  s.webhook_url, s.stk_rotated_at, s.identity_audiences, s.ended_by`

export const SILICON_FROM = `
  accounts a JOIN silicons s ON s.account_uuid = a.uuid LEFT JOIN accounts c ON c.uuid = s.custodian_uuid`
