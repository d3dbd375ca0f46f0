import { Page } from "@platform/http"
import { Schema } from "effect"
import type { ContactRow } from "../accounts/ContactRow.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** One email address or phone number of the caller, as `/v1/me/emails` and `/v1/me/phones` show it. */
export const Contact = Schema.Struct({
  address: Schema.String.annotations({ description: "An email address (lower-cased) or a phone number (E.164)" }),
  verified: Schema.Boolean,
  primary: Schema.Boolean.annotations({ description: "At most one per channel; only a verified address" }),
  added_at: Timestamp,
  verified_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Contact" })
export type Contact = typeof Contact.Type

/** The list response; an account holds at most 10 per channel, so it is always one page. */
export const ContactList = Page(Contact, "ContactList")

/** A keyset position in an emails or phones list: whether primary, created_at (ISO), address. */
export const ContactPosition = Schema.Tuple(Schema.Boolean, Schema.String, Schema.String)

export const contactOf = (row: ContactRow): Contact => ({
  address: row.address,
  verified: row.verified_at !== null,
  primary: row.is_primary,
  added_at: row.created_at.toISOString(),
  verified_at: row.verified_at === null ? null : row.verified_at.toISOString()
})
