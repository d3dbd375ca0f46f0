import { type CsvError, type Options, parse } from "csv-parse"
import { Transform, type Readable } from "node:stream"
import { IMPORT_LIMITS } from "./importLimits.ts"

/** One record of the file, in file order: its fields, or why the parser could not read it. */
export type CsvRecord =
  | { readonly _tag: "Fields"; readonly fields: ReadonlyArray<string>; readonly line: number; readonly index: number }
  | { readonly _tag: "Malformed"; readonly message: string; readonly line: number; readonly index: number }

/** The body passed its byte limit: reading stopped there. */
export class BodyTooLarge extends Error {}

/** The largest record the parser holds: every column at its largest value, with quotes and separators. */
const MAX_RECORD_CHARACTERS = IMPORT_LIMITS.columns * (IMPORT_LIMITS.valueBytes + 3)

/**
 * The records of a CSV body, read as a stream: never more than the parser's buffer and one
 * record in memory. `index` counts records from 0 (the header) in file order, malformed ones
 * included; `line` is the line a record ends on. A record the parser refuses (a wrong number
 * of fields, a stray quote) comes as Malformed and the rest of the file is still read.
 * The body is cut off with BodyTooLarge once it passes `limitBytes`.
 */
export const csvRecords = (body: Readable, limitBytes: number) => {
  let bytesRead = 0
  let index = -1
  const malformed: Array<CsvRecord> = []
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (bytesRead + chunk.length > limitBytes) return done(new BodyTooLarge())
      bytesRead += chunk.length
      done(null, chunk)
    }
  })
  const options: Options<CsvRecord, Array<string>> = {
    bom: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_CHARACTERS,
    on_record: (fields, context): CsvRecord => {
      index += 1
      return { _tag: "Fields", fields, line: context.lines, index }
    },
    // Called while parsing, ahead of records parsed but not yet consumed: kept aside with its place in the file.
    on_skip: (error: CsvError | undefined) => {
      index += 1
      const line = typeof error?.lines === "number" ? error.lines : 0
      malformed.push({ _tag: "Malformed", message: error?.message ?? "the row could not be read", line, index })
      return undefined
    }
  }
  // The declared overloads know only string[] records; on_record makes them CsvRecord.
  const parser = parse(options as unknown as Options)
  body.on("error", (error) => counter.destroy(error))
  counter.on("error", (error) => parser.destroy(error))
  body.pipe(counter).pipe(parser)
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<CsvRecord>
  // The next parsed record, held while malformed ones before it are handed out.
  let ahead: IteratorResult<CsvRecord> | undefined
  return {
    /** The next record in file order; undefined at the end of the file. */
    next: async (): Promise<CsvRecord | undefined> => {
      ahead ??= await records.next()
      const skipped = malformed[0]
      // A record is parsed after every malformed one before it was reported: file order is kept.
      if (skipped !== undefined && (ahead.done === true || skipped.index < ahead.value.index)) return malformed.shift()
      if (ahead.done === true) return undefined
      const record = ahead.value
      ahead = undefined
      return record
    },
    bytesRead: () => bytesRead,
    /** Stops reading: the parser is torn down and the body left unread. */
    stop: () => {
      body.unpipe(counter)
      parser.destroy()
    }
  }
}
