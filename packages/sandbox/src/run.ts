import { Effect } from "effect"
import { spawn } from "node:child_process"
import { randomInt } from "node:crypto"
import { constants } from "node:os"
import { bwrapArguments } from "./bwrapArguments.ts"
import { SandboxUnavailable } from "./errors.ts"
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./limits.ts"
import { cappedOutput } from "./output.ts"

export const BWRAP = "/usr/bin/bwrap"

export interface SandboxCommand {
  /** A host directory, shown read-only at /app (the command's working directory). */
  readonly directory: string
  /** The program, as a path inside the sandbox (`/app/bin/tool`, `/bin/sh`). */
  readonly command: string
  readonly args?: ReadonlyArray<string>
  readonly limits?: Partial<SandboxLimits>
}

export interface SandboxResult {
  /** The command's exit code; null when the sandbox was killed (the timeout). */
  readonly exit_code: number | null
  readonly stdout: string
  readonly stderr: string
  /** Killed at the wall-clock timeout, with everything it started. */
  readonly timed_out: boolean
  /**
   * The signal that ended it: SIGKILL at the timeout, or the one the sandbox reports as exit code 128 + N
   * (SIGXCPU past the CPU limit, SIGXFSZ past the file size, a SIGKILL of the kernel's).
   */
  readonly signal: string | null
  readonly stdout_truncated: boolean
  readonly stderr_truncated: boolean
  /** The host pid of the sandbox (bubblewrap), also its process group's id: gone once this answers. */
  readonly pid: number
  /** The host uid it ran as: a uid of its own when we are root (so that its process limit is its own), else ours. */
  readonly uid: number
}

/** A uid and gid no account uses, drawn per run, so that RLIMIT_NPROC counts this run's processes only. */
const SANDBOX_UIDS = { from: 2_000_000, count: 1_000_000 }

const signalNames = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]))

const signalOf = (code: number | null, signal: NodeJS.Signals | null): string | null => {
  if (signal !== null) return signal
  if (code !== null && code > 128) return signalNames.get(code - 128) ?? null
  return null
}

/** Kills the sandbox's process group; nothing to do when it is already gone. */
const killGroup = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(-pid, "SIGKILL")
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Runs one command inside bubblewrap (see bwrapArguments: no network, read-only system and package, empty
 * environment, private /tmp) under prlimit's limits, as a uid of its own when we are root. The sandbox is
 * its own process group (a detached spawn); at the timeout the group is killed, and with it (bubblewrap's
 * `--die-with-parent` and its pid namespace) everything the command started. stdout and stderr are kept up
 * to `outputBytes` each. Fails only when bubblewrap cannot be started at all.
 */
export const runSandboxed = (run: SandboxCommand): Effect.Effect<SandboxResult, SandboxUnavailable> =>
  Effect.async<SandboxResult, SandboxUnavailable>((resume) => {
    const limits = { ...DEFAULT_SANDBOX_LIMITS, ...run.limits }
    const root = process.getuid?.() === 0
    const uid = root ? SANDBOX_UIDS.from + randomInt(SANDBOX_UIDS.count) : process.getuid?.() ?? -1
    const args = bwrapArguments({ directory: run.directory, command: run.command, args: run.args ?? [], limits })
    const child = spawn(BWRAP, [...args], {
      detached: true,
      cwd: "/",
      env: {},
      stdio: ["ignore", "pipe", "pipe"],
      ...(root ? { uid, gid: uid } : {})
    })
    const stdout = cappedOutput(limits.outputBytes)
    const stderr = cappedOutput(limits.outputBytes)
    child.stdout.on("data", stdout.push)
    child.stderr.on("data", stderr.push)
    let timedOut = false
    let done = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid)
    }, limits.timeoutMillis)
    // Once bubblewrap is gone its pid namespace is too; should a pipe stay open anyway, stop reading it.
    let closing: NodeJS.Timeout | undefined
    child.on("exit", () => {
      closing = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 1000)
    })
    child.on("error", (error) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resume(Effect.fail(new SandboxUnavailable({ message: `bubblewrap could not be started: ${error.message}` })))
    })
    child.on("close", (code, signal) => {
      if (done) return
      done = true
      clearTimeout(timer)
      clearTimeout(closing)
      killGroup(child.pid)
      resume(Effect.succeed({
        exit_code: signal !== null ? null : code,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timed_out: timedOut,
        signal: signalOf(code, signal),
        stdout_truncated: stdout.truncated(),
        stderr_truncated: stderr.truncated(),
        pid: child.pid ?? -1,
        uid
      }))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      killGroup(child.pid)
    })
  })
