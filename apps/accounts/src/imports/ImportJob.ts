import { Schema } from "effect"

export const ImportStatus = Schema.Literal("running", "completed", "failed").annotations({
  description: "running while the request streams its file; completed when every row was read (some may have failed); failed when a file-level limit or fault ended it early (rows written before stay)"
})

/** The job record of one CSV import (spec 1: "fields of import jobs: not shown"). */
export const ImportJob = Schema.Struct({
  import_id: Schema.String,
  app_id: Schema.String,
  status: ImportStatus,
  rows_read: Schema.Int.annotations({ description: "Data rows read so far (the header not counted)" }),
  rows_imported: Schema.Int,
  rows_failed: Schema.Int.annotations({ description: "Rows refused; each is listed at .../errors by its line" }),
  bytes_read: Schema.Int,
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })).annotations({
    description: "What ended a failed import early; null otherwise"
  }),
  created_at: Schema.String,
  updated_at: Schema.String,
  finished_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ImportJob" })
export type ImportJob = typeof ImportJob.Type

/** A refused row, by the line of the file it ends on. */
export const ImportRowError = Schema.Struct({
  line: Schema.Int.annotations({ description: "Line of the file (1 is the header) on which the row ends" }),
  row: Schema.Int.annotations({ description: "Data row number, 1 for the row after the header" }),
  column: Schema.NullOr(Schema.String),
  code: Schema.String.annotations({
    description: "malformed_row, value_too_long, too_many_items, too_many_emails, too_many_phones, invalid_email, invalid_phone, no_contact, external_id_too_long, external_id_exists, invalid_display_name, invalid_timezone, invalid_dob"
  }),
  message: Schema.String
}).annotations({ identifier: "ImportRowError" })
export type ImportRowError = typeof ImportRowError.Type
