import { type ChildProcess, spawn } from "node:child_process"

/** Starts a bench server as its own process and resolves once it prints "ready" or answers `readyUrl`. */
export const startServer = async (
  script: string,
  env: Record<string, string>,
  readyUrl?: string
): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"]
  })
  let printedReady = false
  child.stdout!.on("data", (chunk: Buffer) => {
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
