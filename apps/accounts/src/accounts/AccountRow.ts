import { Schema } from "effect"
import { type AccountKind, formatAccountId } from "./AccountId.ts"

export const AccountStatus = Schema.Literal("active", "pending_custodian", "deleted")
export type AccountStatus = typeof AccountStatus.Type

/** One `accounts` row as the repository selects it (`dob` read as text, YYYY-MM-DD). */
export const AccountRow = Schema.Struct({
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  handle: Schema.NullOr(Schema.String),
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  dob: Schema.NullOr(Schema.String),
  timezone: Schema.String,
  status: AccountStatus,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  version: Schema.Number
})
export type AccountRow = typeof AccountRow.Type

/** The select list of an AccountRow (`dob` as text), for every statement that reads one. */
export const ACCOUNT_COLUMNS =
  "uuid, kind, handle, display_name, pfp_url, dob::text AS dob, timezone, status, created_at, updated_at, version"

/** A Carbon's row: a Carbon always holds a handle. */
export type CarbonRow = AccountRow & { readonly kind: "carbon"; readonly handle: string }

export const isCarbonRow = (row: AccountRow): row is CarbonRow => row.kind === "carbon" && row.handle !== null

/** The row's id in c: / si: form, or null when a deleted Silicon's id was freed. */
export const accountIdOf = (row: { readonly kind: AccountKind; readonly handle: string | null }): string | null =>
  row.handle === null ? null : formatAccountId({ kind: row.kind, handle: row.handle })
