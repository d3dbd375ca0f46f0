import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { addLogFields, JsonLoggerLive, setLogSink, writeLogLine } from "../src/index.ts"

const captured = () => {
  const chunks: Array<string> = []
  const restore = setLogSink((chunk) => chunks.push(chunk))
  return {
    lines: () => chunks.join("").split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line)),
    chunks,
    restore
  }
}

const nextTurn = Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))

describe("JSON log lines", () => {
  it.effect("a structured message keeps its fields; a string becomes msg; a defect's cause is rendered", () =>
    Effect.gen(function*() {
      const out = captured()
      yield* Effect.logInfo({ event: "request", status: 200 })
      yield* Effect.logWarning("careful").pipe(Effect.annotateLogs({ request_id: "r1" }))
      yield* Effect.logError("failed", new Error("boom")).pipe(Effect.ignore)
      yield* Effect.logError("defect").pipe(Effect.zipRight(Effect.die(new Error("kaput"))), Effect.catchAllCause(Effect.logError))
      yield* nextTurn
      out.restore()
      const [request, warning, , , defect] = out.lines()
      expect(request).toMatchObject({ level: "INFO", event: "request", status: 200 })
      expect(typeof request.time).toBe("string")
      expect(warning).toMatchObject({ level: "WARN", msg: "careful", request_id: "r1" })
      expect(defect.cause).toContain("kaput")
    }).pipe(Effect.provide(JsonLoggerLive)))

  it("lines written in one turn of the event loop go out in one write", async () => {
    const out = captured()
    for (let i = 0; i < 100; i++) writeLogLine({ i })
    await new Promise((resolve) => setImmediate(resolve))
    out.restore()
    expect(out.chunks).toHaveLength(1)
    expect(out.lines().map((line) => line.i)).toEqual([...Array(100).keys()])
  })

  it.effect("fields added for the process (a worker's number) go on every later line, Effect's and direct ones", () =>
    Effect.gen(function*() {
      const out = captured()
      const remove = addLogFields({ worker: 2 })
      yield* Effect.logInfo({ event: "request" })
      writeLogLine({ event: "direct" })
      remove()
      writeLogLine({ event: "after" })
      yield* nextTurn
      out.restore()
      expect(out.lines().map((line) => [line.event, line.worker])).toEqual([["request", 2], ["direct", 2], ["after", undefined]])
    }).pipe(Effect.provide(JsonLoggerLive)))
})
