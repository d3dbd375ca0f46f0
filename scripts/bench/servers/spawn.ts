import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { cpus } from "node:os"

/**
 * `command` run on the given cores (taskset's list, e.g. "1" or "0-1") when the machine has two or more
 * and taskset is there, else as it is. The machine's cores, not availableParallelism(): a benchmark runs
 * pinned to core 0 (scripts/bench/pinned), which that counts as one, and a child inherits its pinning.
 */
export const onCores = (cores: string, command: ReadonlyArray<string>): Array<string> =>
  cpus().length >= 2 && existsSync("/usr/bin/taskset") ? ["/usr/bin/taskset", "-c", cores, ...command] : [...command]

/** Starts a bench server as its own process and resolves once it prints "ready" or answers `readyUrl`. */
export const startServer = async (
  script: string,
  env: Record<string, string>,
  readyUrl?: string
): Promise<ChildProcess> => {
  // A server with a ready URL logs to /dev/null: its request log lines are written, as in production, but
  // not read by this process, which is busy generating load.
  // On a machine with two or more cores, servers get core 1 and the load generator (this process) core 0,
  // so that the two do not steal time from each other and runs compare.
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to every server's node, for profiling.
  const node = [...(process.env["BENCH_NODE_ARGS"]?.split(" ").filter((arg) => arg !== "") ?? []), "--import", "tsx", script]
  const [command, ...args] = onCores("1", [process.execPath, ...node])
  const child = spawn(command!, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", readyUrl === undefined ? "pipe" : "ignore", "inherit"]
  })
  let printedReady = false
  child.stdout?.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("ready")) printedReady = true
  })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`)
    if (readyUrl === undefined ? printedReady : await fetch(readyUrl).then((r) => r.ok, () => false)) return child
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill()
  throw new Error(`${script} did not start`)
}

export const stopServer = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })
