import { Schema } from "effect"
import { type AccountRow, AccountStatus, type CarbonRow } from "./AccountRow.ts"
import { formatAccountId } from "./AccountId.ts"
import { AccountSummary } from "./AccountSummary.ts"
import { PFP_URL_DESCRIPTION, pfpUrlOf } from "./pfpUrl.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** The fields both kinds show of themselves (spec 1, "Account (the caller's own view, Me)"). */
export const SharedMeFields = {
  uuid: Schema.String,
  display_name: Schema.String,
  pfp_url: Schema.String.annotations({ description: PFP_URL_DESCRIPTION }),
  dob: Schema.NullOr(Schema.String.annotations({ description: "YYYY-MM-DD" })),
  timezone: Schema.String.annotations({ description: "IANA time zone name" }),
  status: AccountStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  version: Schema.Int
}

/** `publicUrl`: the service's public origin, where an account without a photo finds its default picture. */
export const sharedMeFields = (row: AccountRow, publicUrl: string) => ({
  uuid: row.uuid,
  display_name: row.display_name,
  pfp_url: pfpUrlOf(publicUrl, row),
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

export const carbonMe = (row: CarbonRow, publicUrl: string): CarbonMe => ({
  ...sharedMeFields(row, publicUrl),
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
