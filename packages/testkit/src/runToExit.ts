import { spawnEntry } from "./spawnService.ts"

export interface FinishedProcess {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs a script as `npm start` or `npm run <cli> -- <args>` would (bundled, see `spawnEntry`), until it exits
 * on its own (a start that is expected to fail, an operator command); killed after
 * `timeoutMs`, which the result then shows as a null code.
 */
export const runToExit = (options: {
  /** The script, relative to cwd. */
  readonly entry: string
  readonly cwd: string
  readonly env: Record<string, string>
  /** Command-line arguments after the script. */
  readonly args?: ReadonlyArray<string>
  readonly timeoutMs?: number
}): Promise<FinishedProcess> =>
  spawnEntry(options).then((child) => new Promise((resolve, reject) => {
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000)
    child.once("error", reject)
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  }))
