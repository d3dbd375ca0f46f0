import { Cause, HashMap, Logger } from "effect"
import { writeLogLine } from "./LogLines.ts"

const fieldsOf = (message: unknown): Record<string, unknown> => {
  const only = Array.isArray(message) && message.length === 1 ? message[0] : message
  if (typeof only === "string") return { msg: only }
  if (typeof only === "object" && only !== null && !Array.isArray(only)) return only as Record<string, unknown>
  return { msg: only }
}

/**
 * One JSON object per line: `time`, `level`, the message's fields (a string
 * message becomes `msg`), annotations, and a failure's cause rendered as text.
 */
export const jsonLineLogger = Logger.make<unknown, void>(({ annotations, cause, date, logLevel, message }) => {
  const record: Record<string, unknown> = { time: date.toISOString(), level: logLevel.label, ...fieldsOf(message) }
  for (const [key, value] of HashMap.toEntries(annotations)) record[key] = value
  if (!Cause.isEmpty(cause)) record["cause"] = Cause.pretty(cause, { renderErrorCause: true })
  writeLogLine(record)
})

/** Replaces Effect's default logger with JSON lines on stdout. */
export const JsonLoggerLive = Logger.replace(Logger.defaultLogger, jsonLineLogger)
