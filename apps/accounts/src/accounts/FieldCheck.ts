import { ValidationFailed } from "@platform/http"
import { Either } from "effect"

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

