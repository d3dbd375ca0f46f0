import { accountIdOf } from "../accounts/AccountRow.ts"
import { accountSummary } from "../accounts/AccountSummary.ts"
import { sharedMeFields, type SiliconMe } from "../accounts/Me.ts"
import type { SiliconRow } from "./SiliconRow.ts"

/** The Account a Silicon sees of itself, from its row. */
export const siliconMe = (row: SiliconRow, publicUrl: string): SiliconMe => ({
  ...sharedMeFields(row, publicUrl),
  kind: "silicon",
  id: accountIdOf(row),
  custodian: row.custodian === null ? null : accountSummary(row.custodian, publicUrl),
  webhook_url: row.webhook_url,
  stk_rotated_at: row.stk_rotated_at.toISOString()
})
