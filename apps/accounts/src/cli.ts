import { Command, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer, Logger, LogLevel } from "effect"
import { appsCommand } from "./cli/apps.ts"
import { carbonsCommand } from "./cli/carbons.ts"
import { keysCommand } from "./cli/keys.ts"

/** `npm run accounts -- <command>`: operator commands of ../shared/CONTRACT.md. */
const accounts = Command.make("accounts").pipe(Command.withSubcommands([carbonsCommand, appsCommand, keysCommand]))

const run = Command.run(accounts, { name: "accounts", version: "0.1.0" })

run(process.argv).pipe(
  Effect.catchAllCause((cause) =>
    Effect.sync(() => {
      if (!Cause.isInterruptedOnly(cause)) {
        const failure = Cause.squash(cause)
        // A usage problem (missing or bad option) was already printed by @effect/cli.
        if (!ValidationError.isValidationError(failure)) {
          const line = failure instanceof Error ? failure.message : String(failure)
          process.stderr.write(`accounts: ${line.split("\n")[0]}\n`)
        }
        process.exitCode = 1
      }
    })
  ),
  Effect.provide(Layer.mergeAll(NodeContext.layer, Logger.minimumLogLevel(LogLevel.Warning))),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
