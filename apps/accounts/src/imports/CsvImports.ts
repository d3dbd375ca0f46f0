import type { Readable } from "node:stream"
import { randomToken } from "@platform/crypto"
import { PayloadTooLarge } from "@platform/http"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Duration, Effect, Either, Option } from "effect"
import { BodyTooLarge, type CsvRecord, csvRecords } from "./csvRecords.ts"
import { InvalidCsv, InvalidImportHeader, RequestTimeout, TooManyRows } from "./errors.ts"
import type { ImportJob } from "./ImportJob.ts"
import { IMPORT_LIMITS } from "./importLimits.ts"
import { type ImportHeader, readHeader, readRow } from "./importRows.ts"
import { type ReadRow, ImportsRepo } from "./ImportsRepo.ts"

/** Spec 1, Limits (rate limits): imports, per app. */
export const importRequests: RateLimitRule = { id: "imports", operation: "Imports", limit: 60, window: "1 hour", per: "app" }
export const importRows: RateLimitRule = {
  id: "import_rows",
  operation: "Imported rows",
  limit: 2_000_000,
  window: "24 hours",
  per: "app"
}

/** Rows written per transaction: large enough for multi-row statements to pay, small enough to show progress often. */
const BATCH_ROWS = 1000

export type ImportFailure = InvalidImportHeader | InvalidCsv | TooManyRows | PayloadTooLarge | RequestTimeout | import("@platform/http").RateLimited

const headerRefused = (columns: Record<string, string>) =>
  new InvalidImportHeader({
    message: `The header row cannot be imported: ${Object.entries(columns).map(([column, problem]) => `${column} ${problem}`).join("; ")}.`,
    hint: "The first line names the columns: email and/or phone, and optionally external_id, display_name, timezone, dob and your own.",
    details: { columns }
  })

/**
 * Reads a CSV body as a stream and imports its rows in batches, each its own transaction, so a
 * running import shows its progress and memory stays bounded whatever the file's size.
 */
export class CsvImports extends Effect.Service<CsvImports>()("accounts/CsvImports", {
  effect: Effect.gen(function*() {
    const repo = yield* ImportsRepo
    const limiter = yield* RateLimiter

    const run = (input: {
      readonly appId: string
      readonly startedBy: string | null
      readonly body: Readable
      readonly timeBudgetSeconds: number
    }): Effect.Effect<ImportJob, ImportFailure> =>
      Effect.gen(function*() {
        const records = csvRecords(input.body, IMPORT_LIMITS.bodyBytes)
        const importId = randomToken("imp_", 16)
        const next = Effect.tryPromise({
          try: records.next,
          catch: (error): PayloadTooLarge | InvalidCsv =>
            error instanceof BodyTooLarge
              ? new PayloadTooLarge({
                message: `The file is larger than ${IMPORT_LIMITS.bodyBytes} bytes; reading stopped there.`,
                details: { limit_bytes: IMPORT_LIMITS.bodyBytes }
              })
              : new InvalidCsv({ message: "The file could not be read to its end.", details: { import_id: importId } })
        })
        const imported = Effect.gen(function*() {
          const first = yield* Effect.mapError(next, (error) => error._tag === "InvalidCsv" ? headerRefused({ file: "could not be read" }) : error)
          if (first === undefined) return yield* headerRefused({ file: "is empty: its first line names the columns" })
          if (first._tag === "Malformed") return yield* headerRefused({ header: first.message })
          const header = yield* Either.mapLeft(readHeader(first.fields), headerRefused)
          yield* repo.start(importId, input.appId, input.startedBy, yield* now)
          return yield* importRecords(importId, input.appId, header, next, records.bytesRead).pipe(
            Effect.timeoutFail({
              duration: Duration.seconds(input.timeBudgetSeconds),
              onTimeout: () =>
                new RequestTimeout({
                  message: `The import ran past its ${input.timeBudgetSeconds}-second budget; rows read before stay imported.`,
                  details: { import_id: importId, limit_seconds: input.timeBudgetSeconds }
                })
            }),
            Effect.tapError((error) => Effect.flatMap(now, (at) =>
              repo.finish(importId, { bytesRead: records.bytesRead(), error: { code: error.code, message: error.message } }, at))),
            Effect.onInterrupt(() => Effect.flatMap(now, (at) =>
              repo.finish(importId, {
                bytesRead: records.bytesRead(),
                error: { code: "interrupted", message: "The request ended before the file was read." }
              }, at)))
          )
        })
        return yield* Effect.ensuring(imported, Effect.sync(records.stop))
      })

    const importRecords = (
      importId: string,
      appId: string,
      header: ImportHeader,
      next: Effect.Effect<CsvRecord | undefined, PayloadTooLarge | InvalidCsv>,
      bytesRead: () => number
    ) =>
      Effect.gen(function*() {
        let batch: Array<ReadRow> = []
        const flush = Effect.gen(function*() {
          if (batch.length === 0) return
          yield* enforceRateLimit(limiter, importRows, appId, batch.length)
          yield* repo.writeBatch(importId, appId, batch, bytesRead(), yield* now)
          batch = []
        })
        while (true) {
          const record = yield* next
          if (record === undefined) break
          if (record.index > IMPORT_LIMITS.rows) {
            yield* flush
            return yield* new TooManyRows({
              message: `A file holds at most ${IMPORT_LIMITS.rows} rows; reading stopped at line ${record.line}, the rows before it are imported.`,
              details: { import_id: importId, limit_rows: IMPORT_LIMITS.rows }
            })
          }
          batch.push(yield* rowOf(header, record))
          if (batch.length >= BATCH_ROWS) yield* flush
        }
        yield* flush
        const at = yield* now
        yield* repo.finish(importId, { bytesRead: bytesRead(), error: null }, at)
        return Option.getOrThrow(yield* repo.find(appId, importId))
      })

    const rowOf = (header: ImportHeader, record: CsvRecord): Effect.Effect<ReadRow> =>
      Effect.map(now, (at) => {
        const place = { line: record.line, row: record.index }
        if (record._tag === "Malformed") {
          return { _tag: "Refused", ...place, problem: { column: null, code: "malformed_row", message: record.message } }
        }
        return Either.match(readRow(header, record.fields, at), {
          onLeft: (problem) => ({ _tag: "Refused", ...place, problem }),
          onRight: (person) => ({ _tag: "Person", ...place, person })
        })
      })

    return { run } as const
  }),
  dependencies: [ImportsRepo.Default]
}) {}
