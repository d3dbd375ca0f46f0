import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Spec 1, Errors (Rate and locks): both parse slots of this server stayed busy for the whole wait. */
export class ImportsBusy extends ApiError<ImportsBusy>()("ImportsBusy", {
  code: "imports_busy",
  status: 503,
  details: Schema.Struct({ retry_after_seconds: Schema.Number })
}) {}

/** Spec 1, Errors (Rate and locks): the import ran past its 5-minute budget; rows written before stay. */
export class RequestTimeout extends ApiError<RequestTimeout>()("RequestTimeout", {
  code: "request_timeout",
  status: 503,
  details: Schema.Struct({ import_id: Schema.String, limit_seconds: Schema.Number })
}) {}

export class ImportNotFound extends ApiError<ImportNotFound>()("ImportNotFound", {
  code: "import_not_found",
  status: 404
}) {}

/** A file past 100,000 data rows: reading stops there (rows before it stay imported). */
export class TooManyRows extends ApiError<TooManyRows>()("TooManyRows", {
  code: "too_many_rows",
  status: 422,
  details: Schema.Struct({ import_id: Schema.String, limit_rows: Schema.Number })
}) {}

/** The CSV's header row cannot be imported: every bad column is named. */
export class InvalidImportHeader extends ApiError<InvalidImportHeader>()("InvalidImportHeader", {
  code: "invalid_import_header",
  status: 422,
  details: Schema.Struct({ columns: Schema.Record({ key: Schema.String, value: Schema.String }) })
}) {}

/** The body could not be read to its end as CSV (the connection broke, or the parser gave up). */
export class InvalidCsv extends ApiError<InvalidCsv>()("InvalidCsv", {
  code: "invalid_csv",
  status: 422,
  details: Schema.Struct({ import_id: Schema.String })
}) {}
