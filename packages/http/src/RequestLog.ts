import { writeLogLine } from "@platform/logging"

/** The one line every answered request writes (`event: "request"`). */
export interface RequestLogLine {
  readonly method: string
  readonly route: string
  readonly status: number
  readonly duration_ms: number
  readonly request_id: string
}

/**
 * Writes a request's line straight to the log (the JSON logger's shape and sink) instead of through
 * Effect's logger, which costs a busy server more than some routes do. Callers decide once, from the
 * runtime's minimum log level, whether INFO lines are written at all.
 */
export const writeRequestLine = (line: RequestLogLine): void =>
  writeLogLine({ time: new Date().toISOString(), level: "INFO", event: "request", ...line })

/** Milliseconds since `started` (a `performance.now()`), to two decimals. */
export const durationSince = (started: number): number => Math.round((performance.now() - started) * 100) / 100
