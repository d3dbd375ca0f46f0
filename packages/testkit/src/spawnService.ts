import { type ChildProcess, spawn } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import { bundledEntry } from "./bundledEntry.ts"

export interface SpawnedService {
  readonly url: string
  readonly process: ChildProcess
  /** Everything the process printed so far, stdout and stderr together. */
  readonly output: () => string
  /** SIGTERM, then wait for the exit; resolves with the exit code. */
  readonly stop: () => Promise<number | null>
  /** Resolves with the exit code once the process has exited on its own (null when a signal killed it). */
  readonly exited: Promise<number | null>
}

export interface SpawnOptions {
  /** The script to run, relative to cwd. */
  readonly entry: string
  readonly cwd: string
  readonly env: Record<string, string>
  readonly url: string
  /** The path answering 200 once the service is ready. */
  readonly readyPath?: string
  readonly timeoutMs?: number
}

/**
 * Runs a script in a Node process of its own (with `args` after it), its stdout and stderr piped:
 * the script's bundle (`bundledEntry`), the same program `npm start` runs with tsx, started faster.
 */
export const spawnEntry = async (options: {
  readonly entry: string
  readonly cwd: string
  readonly env: Record<string, string>
  readonly args?: ReadonlyArray<string>
}) =>
  spawn(process.execPath, [await bundledEntry(options.cwd, options.entry), ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })

/** Starts a service as its own Node process, exactly as `npm start` would, and waits until it is ready. */
export const spawnService = async (options: SpawnOptions): Promise<SpawnedService> => {
  let output = ""
  const child = await spawnEntry(options)
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const service: SpawnedService = {
    url: options.url,
    process: child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      return exited
    }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`)
    try {
      const response = await fetch(`${options.url}${options.readyPath ?? "/readyz"}`)
      if (response.status === 200) return service
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  await service.stop()
  throw new Error(`service did not become ready in time:\n${output}`)
}
