import { Either } from "effect"

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** Display name: trimmed, 1 to 100 characters (code points), no control characters. */
export const validateDisplayName = (input: string): Either.Either<string, string> => {
  const name = input.trim()
  const length = [...name].length
  if (length < 1 || length > 100) return Either.left("must be 1 to 100 characters")
  if (CONTROL.test(name)) return Either.left("must not contain control characters")
  return Either.right(name)
}

// Offsets such as +01:00 are not IANA names even where Intl accepts them.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

const canonicalZones = new Map(
  [...Intl.supportedValuesOf("timeZone"), "UTC"].map((zone) => [zone.toLowerCase(), zone] as const)
)

/**
 * An IANA time zone name Intl knows. A name from the canonical list is given
 * its canonical case (`europe/paris` becomes `Europe/Paris`); an alias Intl
 * accepts (`Asia/Kolkata`, `US/Eastern`) is kept as written.
 */
export const validateTimezone = (input: string): Either.Either<string, string> => {
  const refusal = Either.left("must be an IANA time zone name such as Europe/Paris")
  if (input.length > 64 || !IANA_NAME.test(input)) return refusal
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: input })
  } catch {
    return refusal
  }
  return Either.right(canonicalZones.get(input.toLowerCase()) ?? input)
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Date of birth: a real YYYY-MM-DD date, not before 1900-01-01, before today (UTC). */
export const validateDob = (input: string, now: Date): Either.Either<string, string> => {
  const match = DATE.exec(input)
  const parsed = match === null ? Number.NaN : Date.parse(`${input}T00:00:00Z`)
  if (match === null || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== input) {
    return Either.left("must be a date in the form YYYY-MM-DD")
  }
  if (input < "1900-01-01") return Either.left("must not be before 1900-01-01")
  if (input >= now.toISOString().slice(0, 10)) return Either.left("must be in the past")
  return Either.right(input)
}
