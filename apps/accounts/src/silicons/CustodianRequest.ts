import { Schema } from "effect"
import { maskEmail } from "@platform/verification-codes"
import { accountIdOf, AccountStatus } from "../accounts/AccountRow.ts"
import { AccountSummary, accountSummary, SummaryRow } from "../accounts/AccountSummary.ts"

/** Custodian requests last 14 days (spec 1, Lifetimes). */
export const CUSTODIAN_REQUEST_DAYS = 14

/** The account site's page where a Carbon accepts or declines: the custodian's message links straight to it. */
export const CUSTODY_PAGE_PATH = "/account/custody"

export const RequestKind = Schema.Literal("initial", "transfer")
export const RequestStatus = Schema.Literal("pending", "accepted", "declined", "expired", "cancelled")
export type RequestStatus = typeof RequestStatus.Type

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** A request as the repository selects it, with the accounts it names. */
export const CustodianRequestRow = Schema.Struct({
  id: Schema.String,
  kind: RequestKind,
  status: RequestStatus,
  silicon: SummaryRow,
  from: Schema.NullOr(SummaryRow),
  to: Schema.NullOr(SummaryRow),
  to_email: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  decided_at: Schema.NullOr(Schema.DateFromSelf)
})
export type CustodianRequestRow = typeof CustodianRequestRow.Type

/** The Custodian request of spec 1, as the Carbons it concerns see it. */
export const CustodianRequest = Schema.Struct({
  id: Schema.String,
  kind: RequestKind,
  status: RequestStatus,
  silicon: AccountSummary,
  from: Schema.NullOr(AccountSummary).annotations({ description: "The custodian handing over; null for an initial request" }),
  to: Schema.NullOr(AccountSummary).annotations({
    description: "The Carbon asked; null while it was named by an email no account has verified yet"
  }),
  created_at: Timestamp,
  expires_at: Timestamp,
  decided_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CustodianRequest" })
export type CustodianRequest = typeof CustodianRequest.Type

export const custodianRequest = (row: CustodianRequestRow, publicUrl: string): CustodianRequest => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  silicon: accountSummary(row.silicon, publicUrl),
  from: row.from === null ? null : accountSummary(row.from, publicUrl),
  to: row.to === null ? null : accountSummary(row.to, publicUrl),
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  decided_at: row.decided_at === null ? null : row.decided_at.toISOString()
})

/**
 * How the custodian asked for is shown to the Silicon: its c: id, or the email
 * masked whenever it was named by an email (whether or not an account holds
 * it, so a self-creation never tells who uses an address).
 */
export const custodianLabel = (row: CustodianRequestRow): string =>
  row.to_email !== null ? maskEmail(row.to_email) : row.to === null ? "" : accountIdOf(row.to) ?? ""

/** What a self-created Silicon reads of its request with the `sarq_` bearer. */
export const RequestStatusView = Schema.Struct({
  id: Schema.String,
  kind: RequestKind,
  status: RequestStatus,
  custodian: Schema.String.annotations({ description: "The c: id asked, or the email masked" }),
  created_at: Timestamp,
  expires_at: Timestamp,
  decided_at: Schema.NullOr(Timestamp),
  silicon: Schema.Struct({ uuid: Schema.String, id: Schema.NullOr(Schema.String), status: AccountStatus })
}).annotations({ identifier: "CustodianRequestStatus" })

export const requestStatusView = (row: CustodianRequestRow): typeof RequestStatusView.Type => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  custodian: custodianLabel(row),
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  decided_at: row.decided_at === null ? null : row.decided_at.toISOString(),
  silicon: { uuid: row.silicon.uuid, id: accountIdOf(row.silicon), status: row.silicon.status }
})

/** The `request` of the self-creation response. */
export const InitialRequestView = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("initial"),
  status: Schema.Literal("pending"),
  custodian: Schema.String.annotations({ description: "The c: id asked, or the email masked" }),
  expires_at: Timestamp
}).annotations({ identifier: "InitialCustodianRequest" })
