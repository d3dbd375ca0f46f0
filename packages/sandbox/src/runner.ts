import { Effect } from "effect"
import { existsSync } from "node:fs"
import { freshDirectory } from "./extract.ts"
import { BWRAP, runSandboxed } from "./run.ts"

export type RunnerStatus =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string }

/**
 * Whether sandboxed commands can run on this host: Linux, bubblewrap installed, and a trivial command
 * (`true`) run through `runSandboxed` exits 0 (namespaces allowed, prlimit present). Run it once and keep
 * the answer.
 */
export const detectRunner: Effect.Effect<RunnerStatus> = Effect.gen(function*() {
  if (process.platform !== "linux") return { available: false, reason: `sandboxing needs Linux (this is ${process.platform})` }
  if (!existsSync(BWRAP)) return { available: false, reason: `${BWRAP} is missing (Debian package bubblewrap)` }
  const directory = yield* freshDirectory("sandbox-probe-")
  const result = yield* runSandboxed({ directory, command: "/usr/bin/true", limits: { timeoutMillis: 5000 } })
  return result.exit_code === 0
    ? { available: true } as const
    : { available: false, reason: `bubblewrap did not run a trivial command: ${result.stderr.trim() || `exit ${result.exit_code}`}` } as const
}).pipe(
  Effect.scoped,
  Effect.catchTag("SandboxUnavailable", (error) => Effect.succeed({ available: false, reason: error.message } as const))
)
