import { Schema } from "effect"
import { accountIdOf, AccountStatus } from "./AccountRow.ts"

/** An account named inside another record (a Silicon's custodian, a request's from and to). */
export const AccountSummary = Schema.Struct({
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  id: Schema.NullOr(Schema.String).annotations({ description: "c: or si: form; null once a deleted Silicon's id was freed" }),
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  status: AccountStatus
}).annotations({ identifier: "AccountSummary" })
export type AccountSummary = typeof AccountSummary.Type

/** The columns a summary is made of, as the repositories select them (e.g. in a JSON object). */
export const SummaryRow = Schema.Struct({
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  handle: Schema.NullOr(Schema.String),
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  status: AccountStatus
})
export type SummaryRow = typeof SummaryRow.Type

export const accountSummary = (row: SummaryRow): AccountSummary => ({
  uuid: row.uuid,
  kind: row.kind,
  id: accountIdOf(row),
  display_name: row.display_name,
  pfp_url: row.pfp_url,
  status: row.status
})

/** SQL building a SummaryRow as a JSON object from the `accounts` row aliased `alias`. */
export const summaryJson = (alias: string): string =>
  `json_build_object('uuid', ${alias}.uuid, 'kind', ${alias}.kind, 'handle', ${alias}.handle,
    'display_name', ${alias}.display_name, 'pfp_url', ${alias}.pfp_url, 'status', ${alias}.status)`
