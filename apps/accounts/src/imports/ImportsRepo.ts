import { SqlClient } from "@effect/sql"
import { randomBytes } from "node:crypto"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { uuidAt } from "../accounts/uuidPermutation.ts"
import type { ImportJob, ImportRowError } from "./ImportJob.ts"
import type { ImportedPerson, RowProblem } from "./importRows.ts"

const JobRow = Schema.Struct({
  import_id: Schema.String,
  app_id: Schema.String,
  status: Schema.Literal("running", "completed", "failed"),
  rows_read: Schema.Number,
  rows_imported: Schema.Number,
  rows_failed: Schema.Number,
  bytes_read: Schema.Union(Schema.Number, Schema.NumberFromString),
  error_code: Schema.NullOr(Schema.String),
  error_message: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  finished_at: Schema.NullOr(Schema.DateFromSelf)
})
const decodeJobs = rowsDecoder(JobRow)
const JOB_COLUMNS = "import_id, app_id, status, rows_read, rows_imported, rows_failed, bytes_read, error_code, error_message, created_at, updated_at, finished_at"

const ErrorRow = Schema.Struct({
  line: Schema.Number,
  row_number: Schema.Number,
  column_name: Schema.NullOr(Schema.String),
  code: Schema.String,
  message: Schema.String
})
const decodeErrors = rowsDecoder(ErrorRow)
const decodeStrings = rowsDecoder(Schema.Struct({ value: Schema.String }))
const decodeAllocated = rowsDecoder(Schema.Struct({ first: Schema.NumberFromString }))

const jobView = (row: typeof JobRow.Type): ImportJob => ({
  import_id: row.import_id,
  app_id: row.app_id,
  status: row.status,
  rows_read: row.rows_read,
  rows_imported: row.rows_imported,
  rows_failed: row.rows_failed,
  bytes_read: row.bytes_read,
  error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? "" },
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null
})

/** A row read from the file: where it is, and what it holds or why it was refused. */
export type ReadRow =
  | { readonly _tag: "Person"; readonly line: number; readonly row: number; readonly person: ImportedPerson }
  | { readonly _tag: "Refused"; readonly line: number; readonly row: number; readonly problem: RowProblem }

const HANDLE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

/** An imported account's placeholder id until its person signs up and picks one: `i` and 13 random characters. */
const importedHandle = (): string => {
  const bytes = randomBytes(13)
  let handle = "i"
  for (const byte of bytes) handle += HANDLE_ALPHABET[byte % HANDLE_ALPHABET.length]
  return handle
}

/**
 * Import jobs, their row errors, and the accounts an import writes.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class ImportsRepo extends Effect.Service<ImportsRepo>()("accounts/ImportsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const start = (importId: string, appId: string, startedBy: string | null, at: Date): Effect.Effect<void> =>
      sql`
        INSERT INTO import_jobs (import_id, app_id, started_by, status, created_at, updated_at)
        VALUES (${importId}, ${appId}, ${startedBy}, 'running', ${at}, ${at})
      `.pipe(Effect.orDie, Effect.asVoid)

    const finish = (
      importId: string,
      outcome: { readonly bytesRead: number; readonly error: { readonly code: string; readonly message: string } | null },
      at: Date
    ): Effect.Effect<void> =>
      sql`
        UPDATE import_jobs
        SET status = ${outcome.error === null ? "completed" : "failed"}, bytes_read = ${outcome.bytesRead},
            error_code = ${outcome.error?.code ?? null}, error_message = ${outcome.error?.message ?? null},
            updated_at = ${at}, finished_at = ${at}
        WHERE import_id = ${importId}
      `.pipe(Effect.orDie, Effect.asVoid)

    const find = (appId: string, importId: string): Effect.Effect<Option.Option<ImportJob>> =>
      sql`SELECT ${sql.literal(JOB_COLUMNS)} FROM import_jobs WHERE app_id = ${appId} AND import_id = ${importId}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeJobs),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), jobView))
      )

    /** Newest first, `limit` after the (created_at, import_id) position. */
    const list = (
      appId: string,
      limit: number,
      after: { readonly created_at: string; readonly import_id: string } | null
    ): Effect.Effect<ReadonlyArray<ImportJob>> =>
      sql`
        SELECT ${sql.literal(JOB_COLUMNS)} FROM import_jobs
        WHERE app_id = ${appId}
          ${after === null ? sql`` : sql`AND (created_at, import_id) < (${new Date(after.created_at)}, ${after.import_id})`}
        ORDER BY created_at DESC, import_id DESC
        LIMIT ${limit}
      `.pipe(Effect.orDie, Effect.flatMap(decodeJobs), Effect.map((rows) => rows.map(jobView)))

    /** In file order, `limit` after the given line. */
    const errors = (importId: string, limit: number, afterLine: number): Effect.Effect<ReadonlyArray<ImportRowError>> =>
      sql`
        SELECT line, row_number, column_name, code, message FROM import_row_errors
        WHERE import_id = ${importId} AND line > ${afterLine}
        ORDER BY line LIMIT ${limit}
      `.pipe(
        Effect.orDie,
        Effect.flatMap(decodeErrors),
        Effect.map((rows) =>
          rows.map((row) => ({ line: row.line, row: row.row_number, column: row.column_name, code: row.code, message: row.message }))
        )
      )

    /**
     * One batch in one transaction: an account with unverified contacts, an `imported` membership
     * and an imported_accounts entry per person; an error entry per refused row (an external id
     * the app imported before, or twice in the batch, is refused here); the job's counters.
     * Batches of one app take turns (an advisory lock), so two imports cannot both take an external id.
     */
    const writeBatch = (
      importId: string,
      appId: string,
      rows: ReadonlyArray<ReadRow>,
      bytesRead: number,
      at: Date
    ): Effect.Effect<{ readonly imported: number; readonly failed: number }> =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`imports:${appId}`}))`
        const externalIds = rows.flatMap((row) => row._tag === "Person" && row.person.externalId !== null ? [row.person.externalId] : [])
        const taken = new Set(
          // A join, not `IN (…1000 values)`: compared row by row, that list made each batch slower than the last.
          externalIds.length === 0 ? [] : (yield* sql`
            SELECT ia.external_id AS value
            FROM jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb) AS wanted (external_id)
            JOIN imported_accounts ia ON ia.app_id = ${appId} AND ia.external_id = wanted.external_id
          `.pipe(Effect.flatMap(decodeStrings))).map((row) => row.value)
        )
        const people: Array<Extract<ReadRow, { _tag: "Person" }>> = []
        const refused: Array<{ line: number; row: number; problem: RowProblem }> = []
        for (const row of rows) {
          if (row._tag === "Refused") {
            refused.push(row)
            continue
          }
          const externalId = row.person.externalId
          if (externalId !== null && taken.has(externalId)) {
            refused.push({
              line: row.line,
              row: row.row,
              problem: { column: "external_id", code: "external_id_exists", message: "this app imported this external_id already" }
            })
            continue
          }
          if (externalId !== null) taken.add(externalId)
          people.push(row)
        }
        if (people.length > 0) {
          const [allocated] = yield* sql`
            UPDATE account_uuid_allocator SET next_index = next_index + ${people.length}
            RETURNING (next_index - ${people.length})::text AS first
          `.pipe(Effect.flatMap(decodeAllocated))
          if (allocated === undefined) return yield* Effect.dieMessage("account_uuid_allocator has no row")
          const accounts = people.map((row, index) => ({
            uuid: uuidAt(allocated.first + index),
            handle: importedHandle(),
            display_name: row.person.displayName,
            dob: row.person.dob,
            timezone: row.person.timezone
          }))
          yield* sql`
            INSERT INTO accounts (uuid, kind, handle, display_name, pfp_url, dob, timezone, status, created_at, updated_at, version)
            SELECT uuid, 'carbon', handle, display_name, NULL, dob::date, timezone, 'active', ${at}, ${at}, 1
            FROM jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb)
              AS r(uuid text, handle text, display_name text, dob text, timezone text)
          `
          const contacts = (channel: "emails" | "phones") =>
            JSON.stringify(people.flatMap((row, index) => row.person[channel].map((address) => ({ uuid: accounts[index]!.uuid, address }))))
          yield* sql`
            INSERT INTO account_emails (account_uuid, address, verified_at, is_primary, created_at)
            SELECT uuid, address, NULL, false, ${at} FROM jsonb_to_recordset(${contacts("emails")}::jsonb) AS r(uuid text, address text)
          `
          yield* sql`
            INSERT INTO account_phones (account_uuid, address, verified_at, is_primary, created_at)
            SELECT uuid, address, NULL, false, ${at} FROM jsonb_to_recordset(${contacts("phones")}::jsonb) AS r(uuid text, address text)
          `
          const imported = JSON.stringify(people.map((row, index) => ({
            uuid: accounts[index]!.uuid,
            external_id: row.person.externalId,
            attributes: row.person.attributes,
            line: row.line
          })))
          yield* sql`
            INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at)
            SELECT ${appId}, uuid, 'imported', '[]'::jsonb, ${at} FROM jsonb_to_recordset(${imported}::jsonb) AS r(uuid text)
          `
          yield* sql`
            INSERT INTO imported_accounts (account_uuid, app_id, import_id, external_id, attributes, line, created_at)
            SELECT uuid, ${appId}, ${importId}, external_id, attributes, line, ${at}
            FROM jsonb_to_recordset(${imported}::jsonb) AS r(uuid text, external_id text, attributes jsonb, line integer)
          `
        }
        if (refused.length > 0) {
          const entries = JSON.stringify(refused.map(({ line, problem, row }) => ({
            line,
            row_number: row,
            column_name: problem.column,
            code: problem.code,
            message: problem.message
          })))
          yield* sql`
            INSERT INTO import_row_errors (import_id, line, row_number, column_name, code, message)
            SELECT ${importId}, line, row_number, column_name, code, message
            FROM jsonb_to_recordset(${entries}::jsonb) AS r(line integer, row_number integer, column_name text, code text, message text)
          `
        }
        yield* sql`
          UPDATE import_jobs
          SET rows_read = rows_read + ${rows.length}, rows_imported = rows_imported + ${people.length},
              rows_failed = rows_failed + ${refused.length}, bytes_read = ${bytesRead}, updated_at = ${at}
          WHERE import_id = ${importId}
        `
        return { imported: people.length, failed: refused.length }
      })).pipe(Effect.orDie)

    return { start, finish, find, list, errors, writeBatch } as const
  })
}) {}
