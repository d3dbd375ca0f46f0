import { Command, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer, Logger, LogLevel } from "effect"

/** A refusal's field problems (`details.fields` of validation_failed), as ` (field problem; …)`. */
const fieldProblems = (failure: Error): string => {
  const details: unknown = "details" in failure ? failure.details : undefined
  const fields: unknown = typeof details === "object" && details !== null && "fields" in details ? details.fields : undefined
  if (typeof fields !== "object" || fields === null) return ""
  const problems = Object.entries(fields).map(([field, problem]) => `${field} ${String(problem)}`)
  return problems.length === 0 ? "" : ` (${problems.join("; ")})`
}

/**
 * Runs an operator command line (`npm run <name> -- <command>`) on
 * `process.argv`. A failure prints one line on stderr, `<name>: <message>`
 * (with a validation failure's field problems), and exits 1; only warnings and errors are logged, so that stdout carries
 * the command's answer alone.
 */
export const runCli = <Name extends string, E, A>(
  command: Command.Command<Name, NodeContext.NodeContext, E, A>,
  options: { readonly name: string; readonly version: string }
): void =>
  Command.run(command, options)(process.argv).pipe(
    Effect.catchAllCause((cause) =>
      Effect.sync(() => {
        if (!Cause.isInterruptedOnly(cause)) {
          const failure = Cause.squash(cause)
          // A usage problem (missing or bad option) was already printed by @effect/cli.
          if (!ValidationError.isValidationError(failure)) {
            const line = failure instanceof Error ? failure.message + fieldProblems(failure) : String(failure)
            process.stderr.write(`${options.name}: ${line.split("\n")[0]}\n`)
          }
          process.exitCode = 1
        }
      })
    ),
    Effect.provide(Layer.mergeAll(NodeContext.layer, Logger.minimumLogLevel(LogLevel.Warning))),
    NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )
