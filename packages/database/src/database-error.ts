import { SqlError } from "@effect/sql/SqlError"
import { Data } from "effect"

/**
 * The database could not be opened, reached, migrated or answered in time.
 * The message is meant for an operator and never contains a password.
 */
export class DatabaseError extends Data.TaggedError("DatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** A short, human-readable reason taken from an unknown failure (the driver's message, else its code). */
export const describeCause = (cause: unknown): string => {
  // SqlError's own message is generic ("Failed to execute statement"); the driver's error says what happened.
  if (cause instanceof SqlError && cause.cause !== undefined) {
    return describeCause(cause.cause)
  }
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return cause.errors.map(describeCause).join("; ")
  }
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? cause.code : undefined
    return cause.message !== "" ? cause.message : (code ?? cause.name)
  }
  return String(cause)
}
