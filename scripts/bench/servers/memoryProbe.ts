/**
 * Runs a server entry (BENCH_PROBED_SCRIPT) with a memory probe for benchmarks: on SIGUSR2 the
 * process collects garbage (twice, so that objects freed by finalizers go too) and writes
 * process.memoryUsage() as JSON to BENCH_MEMORY_FILE. Memory retained per open connection is then a
 * difference of two such readings, free of garbage not yet collected.
 */
import { writeFileSync } from "node:fs"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void
const target = process.env["BENCH_MEMORY_FILE"]
const script = process.env["BENCH_PROBED_SCRIPT"]
if (target === undefined || script === undefined) throw new Error("BENCH_MEMORY_FILE and BENCH_PROBED_SCRIPT are required")

process.on("SIGUSR2", () => {
  collectGarbage()
  collectGarbage()
  writeFileSync(target, JSON.stringify(process.memoryUsage()))
})
await import(script)
