import { type SandboxUnavailable, SANDBOX_APP_DIRECTORY, type SandboxCommand, type SandboxResult } from "@platform/sandbox"
import { Effect } from "effect"
import type { CommandResult, Expectation } from "./Package.ts"

/** The commands every package must answer in the sandbox (spec 2's required_commands), and what each must show. */
export const VALIDATION_COMMANDS: ReadonlyArray<{ readonly args: ReadonlyArray<string>; readonly expected: Expectation }> = [
  {
    args: ["--help"],
    expected: { exit_code: 0, stdout: "text", description: "exit code 0 and its usage on stdout" }
  },
  {
    args: ["accounts", "--json"],
    expected: { exit_code: 0, stdout: "json", description: "exit code 0 and the accounts it knows as one JSON array or object on stdout" }
  },
  {
    args: ["login", "status", "--json"],
    expected: { exit_code: 0, stdout: "json_object", description: "exit code 0 and whether it is signed in as one JSON object on stdout" }
  }
]

/** The three commands as spec 2's readiness names them. */
export const REQUIRED_COMMANDS = VALIDATION_COMMANDS.map(({ args }) => args.join(" "))

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Whether a command's run shows what it must. */
export const shows = (expected: Expectation, result: SandboxResult): boolean => {
  if (result.timed_out || result.exit_code !== expected.exit_code || result.stdout_truncated) return false
  if (expected.stdout === "text") return result.stdout.trim() !== ""
  const value = parsed(result.stdout)
  if (value === null || typeof value !== "object") return false
  return expected.stdout === "json" || !Array.isArray(value)
}

/**
 * Runs the package's command with each validation's arguments, one after the other, every one of them
 * (a refusal reports them all). `command` is relative to the package's root.
 */
export const validatePackage = (
  run: (command: SandboxCommand) => Effect.Effect<SandboxResult, SandboxUnavailable>,
  directory: string,
  command: string
): Effect.Effect<ReadonlyArray<CommandResult>, SandboxUnavailable> =>
  Effect.forEach(VALIDATION_COMMANDS, ({ args, expected }) =>
    Effect.map(run({ directory, command: `${SANDBOX_APP_DIRECTORY}/${command}`, args }), (result) => ({
      command: args.join(" "),
      exit_code: result.exit_code,
      stdout: result.stdout,
      stderr: result.stderr,
      passed: shows(expected, result),
      expected,
      timed_out: result.timed_out,
      signal: result.signal
    })))
