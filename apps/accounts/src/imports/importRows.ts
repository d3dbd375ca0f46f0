import { Either } from "effect"
import { normalizeEmail, normalizePhone } from "@platform/verification-codes"
import { validateDisplayName, validateDob, validateTimezone } from "../accounts/profileFields.ts"
import { IMPORT_LIMITS } from "./importLimits.ts"

/** Columns an import reads into the account; any other column is kept as an attribute of the import. */
const KNOWN = ["external_id", "email", "phone", "display_name", "timezone", "dob"] as const
type Known = typeof KNOWN[number]

/** A column named `name[]` holds a list: items separated by `;`. email and phone are lists too. */
const LIST_SUFFIX = "[]"
const SEPARATOR = ";"

export interface ImportHeader {
  readonly names: ReadonlyArray<string>
  readonly checkTimezone: (zone: string) => Either.Either<string, string>
  /** Where each known column is, when present. */
  readonly known: Partial<Record<Known, number>>
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8")

/** Checking a time zone builds an Intl formatter; a file names few zones, each is checked once per file. */
const zoneChecker = () => {
  const checked = new Map<string, Either.Either<string, string>>()
  return (zone: string) => {
    const known = checked.get(zone)
    if (known !== undefined) return known
    const result = validateTimezone(zone)
    if (checked.size < 1000) checked.set(zone, result)
    return result
  }
}

/** The header row, checked: every bad column named (by its 1-based position when its name is the problem). */
export const readHeader = (record: ReadonlyArray<string>): Either.Either<ImportHeader, Record<string, string>> => {
  const problems: Record<string, string> = {}
  if (record.length > IMPORT_LIMITS.columns) problems["columns"] = `at most ${IMPORT_LIMITS.columns} columns, got ${record.length}`
  const names = record.map((name) => name.trim())
  const seen = new Set<string>()
  const known: Partial<Record<Known, number>> = {}
  names.forEach((name, index) => {
    const where = `column ${index + 1}`
    if (name.length === 0) problems[where] = "has no name"
    else if (bytes(name) > IMPORT_LIMITS.columnNameBytes) problems[where] = `name longer than ${IMPORT_LIMITS.columnNameBytes} bytes`
    else if (seen.has(name.toLowerCase())) problems[where] = `repeats the column ${JSON.stringify(name)}`
    seen.add(name.toLowerCase())
    const knownName = KNOWN.find((k) => k === name.toLowerCase())
    if (knownName !== undefined) known[knownName] = index
  })
  if (known.email === undefined && known.phone === undefined) problems["email"] = "an email or a phone column is required"
  return Object.keys(problems).length > 0 ? Either.left(problems) : Either.right({ names, known, checkTimezone: zoneChecker() })
}

/** One person to import, validated and normalized. */
export interface ImportedPerson {
  readonly externalId: string | null
  readonly displayName: string
  readonly timezone: string
  readonly dob: string | null
  readonly emails: ReadonlyArray<string>
  readonly phones: ReadonlyArray<string>
  readonly attributes: Record<string, string | ReadonlyArray<string>>
}

/** Why a row was not imported: what a person reads in the job's errors. */
export interface RowProblem {
  readonly column: string | null
  readonly code: string
  readonly message: string
}

const problem = (column: string | null, code: string, message: string): Either.Either<never, RowProblem> =>
  Either.left({ column, code, message })

const itemsOf = (value: string): ReadonlyArray<string> =>
  value.split(SEPARATOR).map((item) => item.trim()).filter((item) => item.length > 0)

const addresses = (
  header: ImportHeader,
  record: ReadonlyArray<string>,
  column: "email" | "phone",
  limit: number,
  normalize: (input: string) => Either.Either<string, string>
): Either.Either<ReadonlyArray<string>, RowProblem> => {
  const index = header.known[column]
  const items = index === undefined ? [] : itemsOf(record[index] ?? "")
  if (items.length > limit) return problem(column, `too_many_${column}s`, `at most ${limit} ${column}s per row, got ${items.length}`)
  const normalized = new Set<string>()
  for (const item of items) {
    const result = normalize(item)
    if (Either.isLeft(result)) return problem(column, `invalid_${column}`, `${JSON.stringify(item)} ${result.left}`)
    normalized.add(result.right)
  }
  return Either.right([...normalized])
}

/** A data row checked against the limits and the account rules; the first problem found refuses it. */
export const readRow = (
  header: ImportHeader,
  record: ReadonlyArray<string>,
  now: Date
): Either.Either<ImportedPerson, RowProblem> =>
  Either.gen(function*() {
    const attributes: Record<string, string | ReadonlyArray<string>> = {}
    for (let index = 0; index < record.length; index++) {
      const name = header.names[index]!
      const value = record[index]!
      if (bytes(value) > IMPORT_LIMITS.valueBytes) {
        return yield* problem(name, "value_too_long", `a value holds at most ${IMPORT_LIMITS.valueBytes} bytes`)
      }
      if (Object.values(header.known).includes(index) || value.length === 0) continue
      if (name.endsWith(LIST_SUFFIX)) {
        const items = itemsOf(value)
        if (items.length > IMPORT_LIMITS.listItems) {
          return yield* problem(name, "too_many_items", `a list holds at most ${IMPORT_LIMITS.listItems} items, got ${items.length}`)
        }
        attributes[name.slice(0, -LIST_SUFFIX.length)] = items
      } else {
        attributes[name] = value
      }
    }
    const emails = yield* addresses(header, record, "email", IMPORT_LIMITS.emailsPerRow, normalizeEmail)
    const phones = yield* addresses(header, record, "phone", IMPORT_LIMITS.phonesPerRow, normalizePhone)
    if (emails.length === 0 && phones.length === 0) return yield* problem(null, "no_contact", "a row needs an email or a phone")
    const field = (name: Known) => {
      const index = header.known[name]
      const value = index === undefined ? "" : record[index]!.trim()
      return value.length === 0 ? undefined : value
    }
    const externalId = field("external_id") ?? null
    if (externalId !== null && externalId.length > IMPORT_LIMITS.externalIdCharacters) {
      return yield* problem("external_id", "external_id_too_long", `at most ${IMPORT_LIMITS.externalIdCharacters} characters`)
    }
    const check = (name: Known, result: Either.Either<string, string>) =>
      Either.mapLeft(result, (message) => ({ column: name, code: `invalid_${name}`, message }))
    // Without a display name, the person is known by their first address until they sign up.
    const displayName = yield* check("display_name", validateDisplayName(field("display_name") ?? emails[0]?.split("@")[0] ?? phones[0]!))
    const timezone = yield* check("timezone", header.checkTimezone(field("timezone") ?? "UTC"))
    const dobText = field("dob")
    const dob = dobText === undefined ? null : yield* check("dob", validateDob(dobText, now))
    return { externalId, displayName, timezone, dob, emails, phones, attributes }
  })
