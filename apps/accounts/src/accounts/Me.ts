import { Schema } from "effect"
import { type AccountRow, AccountStatus, type CarbonRow } from "./AccountRow.ts"
import { formatAccountId } from "./AccountId.ts"
import { AccountSummary } from "./AccountSummary.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** The fields both kinds show of themselves (spec 1, "Account (the caller's own view, Me)"). */
export const SharedMeFields = {
  uuid: Schema.String,
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  dob: Schema.NullOr(Schema.String.annotations({ description: "YYYY-MM-DD" })),
  timezone: Schema.String.annotations({ description: "IANA time zone name" }),
  status: AccountStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  version: Schema.Int
}

export const sharedMeFields = (row: AccountRow) => ({
  uuid: row.uuid,
  display_name: row.display_name,
  pfp_url: row.pfp_url,
  dob: row.dob,
  timezone: row.timezone,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  version: row.version
})

/**
 * The Account a Carbon sees of itself: exactly the table's fields; contact
 * details are listed by their own endpoints, not here.
 */
export const CarbonMe = Schema.Struct({
  ...SharedMeFields,
  kind: Schema.Literal("carbon"),
  id: Schema.String.annotations({ description: "c:<handle>" })
}).annotations({ identifier: "CarbonMe" })
export type CarbonMe = typeof CarbonMe.Type

export const carbonMe = (row: CarbonRow): CarbonMe => ({
  ...sharedMeFields(row),
  kind: "carbon",
  id: formatAccountId({ kind: "carbon", handle: row.handle })
})

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

/** The caller's own view of its account, either kind (spec 1, "Account (the caller's own view, Me)"). */
export const AccountMe = Schema.Union(CarbonMe, SiliconMe).annotations({ identifier: "AccountMe" })
export type AccountMe = typeof AccountMe.Type
