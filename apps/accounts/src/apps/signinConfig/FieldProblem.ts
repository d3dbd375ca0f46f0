import { ValidationFailed } from "@platform/http"
import { Either } from "effect"

/** One problem with a field of a signin_config, keyed by its dot path (e.g. `branding.light.text`, `redirect_uris.3`). */
export interface FieldProblem {
  readonly field: string
  readonly message: string
}

/** Collects problems; `check` records a rule's answer under a path. */
export class Problems {
  readonly list: Array<FieldProblem> = []

  add(field: string, message: string): void {
    this.list.push({ field, message })
  }

  check<A>(field: string, value: A | null, rule: (value: A) => Either.Either<unknown, string>): void {
    if (value === null) return
    Either.match(rule(value), { onLeft: (message) => this.add(field, message), onRight: () => undefined })
  }
}

/** The 422 validation_failed answer: details.fields maps each path to its problems. */
export const toValidationFailed = (problems: ReadonlyArray<FieldProblem>): ValidationFailed => {
  const fields: Record<string, string> = {}
  for (const { field, message } of problems) fields[field] = field in fields ? `${fields[field]}; ${message}` : message
  return new ValidationFailed({
    message: `Invalid signin_config: ${problems.map(({ field, message }) => `${field} ${message}`).join("; ")}.`,
    details: { fields }
  })
}
