import { Schema } from "effect"
import { TargetSchema } from "../targets/Targets.ts"

/** What a validation command must show. */
export const Expectation = Schema.Struct({
  exit_code: Schema.Literal(0),
  stdout: Schema.Literal("text", "json", "json_object").annotations({
    description: "text: something on stdout; json: one JSON object or array; json_object: one JSON object"
  }),
  description: Schema.String
}).annotations({ identifier: "ValidationExpectation" })
export type Expectation = typeof Expectation.Type

/** One validation command as it ran in the sandbox. */
export const CommandResult = Schema.Struct({
  command: Schema.String.annotations({ description: "The arguments the package's command was run with, such as `accounts --json`" }),
  exit_code: Schema.NullOr(Schema.Number).annotations({ description: "null when the sandbox killed it at its timeout" }),
  stdout: Schema.String.annotations({ description: "At most 64 KiB" }),
  stderr: Schema.String.annotations({ description: "At most 64 KiB" }),
  passed: Schema.Boolean,
  expected: Expectation,
  timed_out: Schema.Boolean,
  signal: Schema.NullOr(Schema.String).annotations({ description: "The signal that ended it (SIGKILL at the timeout, SIGXCPU past its CPU time)" })
}).annotations({ identifier: "CommandResult" })
export type CommandResult = typeof CommandResult.Type

/** An accepted package (spec 2's Package). */
export const Package = Schema.Struct({
  id: Schema.String,
  target: TargetSchema,
  sha256: Schema.String.annotations({ description: "Of the uploaded .tar.gz, lowercase hex" }),
  size: Schema.Number.annotations({ description: "Of the uploaded .tar.gz, in bytes" }),
  command: Schema.String.annotations({ description: "The package's command, relative to its root (from app.json)" }),
  validation: Schema.Array(CommandResult),
  created_at: Schema.Date
}).annotations({ identifier: "Package" })
export type Package = typeof Package.Type

export const PackageList = Schema.Struct({ items: Schema.Array(Package) }).annotations({ identifier: "PackageList" })

/** The install script a package names, as resolve shows it. */
export interface InstallScript {
  readonly path: string
  readonly sha256: string
  readonly size: number
}
