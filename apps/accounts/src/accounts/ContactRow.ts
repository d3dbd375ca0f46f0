import { Schema } from "effect"

/** One row of `account_emails` or `account_phones`. */
export const ContactRow = Schema.Struct({
  address: Schema.String,
  verified_at: Schema.NullOr(Schema.DateFromSelf),
  is_primary: Schema.Boolean,
  created_at: Schema.DateFromSelf
})
export type ContactRow = typeof ContactRow.Type
