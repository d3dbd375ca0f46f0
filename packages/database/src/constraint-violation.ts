import type { SqlError } from "@effect/sql/SqlError"

/**
 * The constraint (or unique index) a failed statement violated, from the
 * driver's error; our own triggers raise with a constraint name too.
 */
export const violatedConstraint = (error: SqlError): string | undefined => {
  const cause: unknown = error.cause
  return typeof cause === "object" && cause !== null && "constraint" in cause && typeof cause.constraint === "string"
    ? cause.constraint
    : undefined
}
