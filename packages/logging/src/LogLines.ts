import { writeSync } from "node:fs"

export type LogSink = (chunk: string) => void

let pending: Array<string> = []
let scheduled = false
let sink: LogSink = (chunk) => process.stdout.write(chunk)
let processFields: object | undefined

const flush = () => {
  scheduled = false
  if (pending.length === 0) return
  const chunk = pending.join("")
  pending = []
  sink(chunk)
}

// Whatever is still queued when the process exits is written synchronously.
process.once("exit", () => {
  if (pending.length > 0) writeSync(1, pending.join(""))
  pending = []
})

/**
 * Queues one JSON log line; every line queued in the same turn of the event
 * loop goes out in one write, which keeps logging off a busy server's hot path.
 */
export const writeLogLine = (record: object): void => {
  pending.push(`${JSON.stringify(processFields === undefined ? record : { ...record, ...processFields })}\n`)
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
}

/** Redirects log output (tests read it back). Returns a function restoring the previous sink. */
export const setLogSink = (next: LogSink): (() => void) => {
  flush()
  const previous = sink
  sink = next
  return () => {
    flush()
    sink = previous
  }
}

/**
 * Fields every later line of this process carries, e.g. `{ worker: 2 }` in one of a service's
 * workers. Returns a function restoring the previous fields (tests).
 */
export const addLogFields = (fields: object): (() => void) => {
  const previous = processFields
  processFields = { ...processFields, ...fields }
  return () => {
    processFields = previous
  }
}
