import { SqlError } from "@effect/sql/SqlError"
import Pg from "pg"

/**
 * SQLSTATE classes where the server, not the statement, is the problem: connection
 * exceptions (08), insufficient resources (53), operator intervention (57: shutdown,
 * crash, cannot connect now, statement timeout or cancel) and system errors (58).
 */
const UNAVAILABLE_CLASSES = new Set(["08", "53", "57", "58"])

/**
 * Whether a failure means the database is out of reach for now (down, cut, black-holed,
 * overloaded, timed out), so the request may succeed later: answered 503 with Retry-After.
 * An error the server reports about the statement itself (syntax, constraint, data) is a
 * defect of ours instead, answered 500.
 */
export const isDatabaseUnavailable = (defect: unknown): boolean => {
  if (!(defect instanceof SqlError)) return false
  const cause = defect.cause
  if (cause instanceof Pg.DatabaseError) return typeof cause.code === "string" && UNAVAILABLE_CLASSES.has(cause.code.slice(0, 2))
  // No server answer at all: refused, reset, terminated, or timed out on our side.
  return true
}
