import { Schema } from "effect"
import { AccountStatus, type CarbonRow } from "./AccountRow.ts"
import { formatAccountId } from "./AccountId.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/**
 * The Account a Carbon sees of itself (spec 1, "Account (the caller's own
 * view, Me)"): exactly the table's fields; contact details are listed by
 * their own endpoints, not here.
 */
export const CarbonMe = Schema.Struct({
  uuid: Schema.String,
  kind: Schema.Literal("carbon"),
  id: Schema.String.annotations({ description: "c:<handle>" }),
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  dob: Schema.NullOr(Schema.String.annotations({ description: "YYYY-MM-DD" })),
  timezone: Schema.String.annotations({ description: "IANA time zone name" }),
  status: AccountStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  version: Schema.Int
}).annotations({ identifier: "CarbonMe" })
export type CarbonMe = typeof CarbonMe.Type

export const carbonMe = (row: CarbonRow): CarbonMe => ({
  uuid: row.uuid,
  kind: "carbon",
  id: formatAccountId({ kind: "carbon", handle: row.handle }),
  display_name: row.display_name,
  pfp_url: row.pfp_url,
  dob: row.dob,
  timezone: row.timezone,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  version: row.version
})
