import { ValidationFailed } from "@platform/http"
import { checkOutboundUrl, MAX_URL_LENGTH, type OutboundPolicy } from "@platform/outbound"
import { Either } from "effect"
import { validateDisplayName, validateTimezone } from "../accounts/profileFields.ts"
import { normalizeStk } from "./stk.ts"

/** A photo URL: https, at most 2048 characters (it is shown, never fetched by us). */
export const validatePfpUrl = (input: string): Either.Either<string, string> => {
  if (input.length > MAX_URL_LENGTH) return Either.left(`must be at most ${MAX_URL_LENGTH} characters`)
  try {
    const url = new URL(input)
    return url.protocol === "https:" ? Either.right(url.href) : Either.left("must be an https URL")
  } catch {
    return Either.left("must be an https URL")
  }
}

/** A webhook URL, through the outbound guard. */
export const validateWebhookUrl = (policy: OutboundPolicy) => (input: string): Either.Either<string, string> =>
  Either.map(checkOutboundUrl(input, policy), (url) => url.href)

/**
 * Collects field problems under their wire names and answers every one of
 * them at once as 422 validation_failed.
 */
export class FieldCheck {
  private readonly problems: Record<string, string> = {}

  /** The validated value, or undefined after recording the problem; undefined input stays undefined. */
  check<A>(field: string, value: A | undefined, validate: (value: A) => Either.Either<A, string>): A | undefined {
    if (value === undefined) return undefined
    return Either.match(validate(value), {
      onLeft: (problem) => {
        this.problems[field] = problem
        return undefined
      },
      onRight: (valid) => valid
    })
  }

  /** Fails with every problem recorded, if any. */
  get result(): Either.Either<void, ValidationFailed> {
    const fields = this.problems
    return Object.keys(fields).length === 0 ? Either.void : Either.left(
      new ValidationFailed({
        message: `Invalid values: ${Object.entries(fields).map(([field, problem]) => `${field} ${problem}`).join("; ")}.`,
        details: { fields }
      })
    )
  }
}

export const siliconFieldRules = {
  displayName: validateDisplayName,
  timezone: validateTimezone,
  pfpUrl: validatePfpUrl,
  stk: normalizeStk
} as const
