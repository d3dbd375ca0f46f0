import { Schema } from "effect"
import { accountIdOf, AccountStatus } from "./AccountRow.ts"
import { PFP_URL_DESCRIPTION, pfpUrlOf } from "./pfpUrl.ts"

/** An account named inside another record (a Silicon's custodian, a request's from and to). */
export const AccountSummary = Schema.Struct({
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  id: Schema.NullOr(Schema.String).annotations({ description: "c: or si: form; null once a deleted Silicon's id was freed" }),
  display_name: Schema.String,
  pfp_url: Schema.String.annotations({ description: PFP_URL_DESCRIPTION }),
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

/** `publicUrl`: the service's public origin, where an account without a photo finds its default picture. */
export const accountSummary = (row: SummaryRow, publicUrl: string): AccountSummary => ({
  uuid: row.uuid,
  kind: row.kind,
  id: accountIdOf(row),
  display_name: row.display_name,
  pfp_url: pfpUrlOf(publicUrl, row),
  status: row.status
})

/** SQL building a SummaryRow as a JSON object from the `accounts` row aliased `alias`. */
export const summaryJson = (alias: string): string =>
  `json_build_object('uuid', ${alias}.uuid, 'kind', ${alias}.kind, 'handle', ${alias}.handle,
    'display_name', ${alias}.display_name, 'pfp_url', ${alias}.pfp_url, 'status', ${alias}.status)`
