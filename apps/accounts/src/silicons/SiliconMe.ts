import { Schema } from "effect"
import { accountIdOf } from "../accounts/AccountRow.ts"
import { AccountSummary, accountSummary } from "../accounts/AccountSummary.ts"
import { SharedMeFields, sharedMeFields } from "../accounts/Me.ts"
import type { SiliconRow } from "./SiliconRow.ts"

/** The Account a Silicon sees of itself (spec 1, "Account (the caller's own view, Me)"). */
export const SiliconMe = Schema.Struct({
  ...SharedMeFields,
  kind: Schema.Literal("silicon"),
  id: Schema.NullOr(Schema.String).annotations({ description: "si:<handle>; null once a deleted Silicon's id was freed" }),
  custodian: Schema.NullOr(AccountSummary).annotations({ description: "null while pending" }),
  webhook_url: Schema.NullOr(Schema.String),
  stk_rotated_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "SiliconMe" })
export type SiliconMe = typeof SiliconMe.Type

export const siliconMe = (row: SiliconRow): SiliconMe => ({
  ...sharedMeFields(row),
  kind: "silicon",
  id: accountIdOf(row),
  custodian: row.custodian === null ? null : accountSummary(row.custodian),
  webhook_url: row.webhook_url,
  stk_rotated_at: row.stk_rotated_at.toISOString()
})
