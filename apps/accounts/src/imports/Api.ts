import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, MaxBodyBytes, Page, PageQueryFields, RateLimited, StreamedBody, TimeBudgetMillis } from "@platform/http"
import { Schema } from "effect"
import { AppOrAuthor } from "../app-management/AppOrAuthor.ts"
import { ImportNotFound, ImportsBusy, InvalidCsv, InvalidImportHeader, RequestTimeout, TooManyRows } from "./errors.ts"
import { ImportJob, ImportRowError } from "./ImportJob.ts"
import { IMPORT_LIMITS } from "./importLimits.ts"

const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })
const ImportPath = Schema.Struct({ ...AppPath.fields, import_id: Schema.String.pipe(Schema.maxLength(64)) })

export const ImportJobPage = Page(ImportJob, "ImportJobPage")
export const ImportRowErrorPage = Page(ImportRowError, "ImportRowErrorPage")

const CsvBody = HttpApiSchema.Text({ contentType: "text/csv" }).annotations({
  description: "A header row naming the columns, then one row per person (RFC 4180 CSV, UTF-8)"
})

/** CSV imports of an app's users (spec 1, App management: Imports; Limits: Import). */
export class ImportsApi extends HttpApiGroup.make("imports")
  .add(
    HttpApiEndpoint.post("create", "/v1/apps/:app_id/imports")
      .setPath(AppPath)
      .setPayload(CsvBody)
      .addSuccess(ImportJob, { status: 201 })
      .addError(errorResponse(InvalidImportHeader))
      .addError(errorResponse(InvalidCsv))
      .addError(errorResponse(TooManyRows))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(ImportsBusy))
      .addError(errorResponse(RequestTimeout))
      .annotate(MaxBodyBytes, IMPORT_LIMITS.bodyBytes)
      .annotate(StreamedBody, true)
      // The import keeps its own budget (ACCOUNTS_IMPORT_TIME_BUDGET_SECONDS, after waiting up to
      // ACCOUNTS_IMPORT_WAIT_SECONDS for a slot): the conventions' budget stays above both settings' maxima.
      .annotate(TimeBudgetMillis, (3600 + 300 + 60) * 1000)
      .annotate(
        OpenApi.Description,
        "Imports people from a CSV file, read as it arrives. Columns: email and/or phone (several separated by ;, at most 10 each), " +
          "optional external_id (at most 255 characters, unique per app), display_name, timezone, dob; any other column is kept with " +
          "the imported account, a column named name[] as a list of at most 50 items separated by ;. Each person becomes an account " +
          "with an imported membership; signing up later with an imported address finishes the import. A refused row is listed by " +
          "its line at .../errors and the rest are imported. Limits: 50 MB, 100,000 rows, 200 columns, names 200 bytes, values 8 KB; " +
          "2 parses at once per server (a request waits up to 30 seconds, then 503 imports_busy with Retry-After 15); " +
          "60 requests per hour and 2,000,000 rows per 24 hours per app; 5 minutes per request. Rows are written in batches as they " +
          "are read: the job (GET .../imports) shows progress while it runs, and rows before a file-level refusal stay imported. " +
          "Idempotency-Key is not stored for this route (its body is never held whole): a file with external_id may be sent again safely."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/imports")
      .setPath(AppPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(ImportJobPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The app's imports, newest first, running ones included with their progress.")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/apps/:app_id/imports/:import_id")
      .setPath(ImportPath)
      .addSuccess(ImportJob)
      .addError(errorResponse(ImportNotFound))
      .annotate(OpenApi.Description, "One import: its status and counters, updated after every batch while it runs.")
  )
  .add(
    HttpApiEndpoint.get("errors", "/v1/apps/:app_id/imports/:import_id/errors")
      .setPath(ImportPath)
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(ImportRowErrorPage)
      .addError(errorResponse(ImportNotFound))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The import's refused rows in file order: line, row, column, code and a message a person can act on.")
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "Imports")
{}
