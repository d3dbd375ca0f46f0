import { ValidationFailed } from "@platform/http"
import { Either } from "effect"
import { normalizeEmail, normalizePhone } from "@platform/verification-codes"
import { validateDisplayName, validateDob, validateTimezone } from "./profileFields.ts"

/** What creating a Carbon takes; contact details are taken as verified by whoever calls. */
export interface NewCarbon {
  /** `c:<handle>` or a bare handle, any case. */
  readonly id: string
  readonly displayName: string
  readonly email?: string | undefined
  readonly phone?: string | undefined
  /** IANA name; default UTC. */
  readonly timezone?: string | undefined
  /** YYYY-MM-DD; default none. */
  readonly dob?: string | undefined
}

/** A NewCarbon's fields, validated and normalized. */
export interface CarbonFields {
  readonly displayName: string
  readonly timezone: string
  readonly dob: string | null
  readonly email: string | null
  readonly phone: string | null
}

/** One line naming every bad field, for people and for the operator command's one-line error. */
export const validationFailed = (fields: Record<string, string>): ValidationFailed =>
  new ValidationFailed({
    message: `Invalid values: ${Object.entries(fields).map(([field, problem]) => `${field} ${problem}`).join("; ")}.`,
    details: { fields }
  })

/** Checks every field at once (422 validation_failed names each bad one, under its wire name). */
export const validateNewCarbon = (input: NewCarbon, now: Date): Either.Either<CarbonFields, ValidationFailed> => {
  const problems: Record<string, string> = {}
  const check = (field: string, result: Either.Either<string, string>): string | null =>
    Either.match(result, {
      onLeft: (problem) => {
        problems[field] = problem
        return null
      },
      onRight: (value) => value
    })
  const displayName = check("display_name", validateDisplayName(input.displayName))
  const timezone = check("timezone", validateTimezone(input.timezone ?? "UTC"))
  const dob = input.dob === undefined ? null : check("dob", validateDob(input.dob, now))
  const email = input.email === undefined ? null : check("email", normalizeEmail(input.email))
  const phone = input.phone === undefined ? null : check("phone", normalizePhone(input.phone))
  if (input.email === undefined && input.phone === undefined) problems["email"] = "or a phone is required"
  if (Object.keys(problems).length > 0 || displayName === null || timezone === null) {
    return Either.left(validationFailed(problems))
  }
  return Either.right({ displayName, timezone, dob, email, phone })
}
