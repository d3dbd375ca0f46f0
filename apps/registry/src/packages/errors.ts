import { ApiError } from "@platform/http"
import { Schema } from "effect"
import { CommandResult } from "./Package.ts"

/** The package ran in the sandbox and at least one command did not show what it must. */
export class PackageValidationFailed extends ApiError<PackageValidationFailed>()("PackageValidationFailed", {
  code: "package_validation_failed",
  status: 422,
  details: Schema.Struct({
    target: Schema.String,
    sha256: Schema.String,
    size: Schema.Number,
    command: Schema.String,
    validation: Schema.Array(CommandResult)
  })
}) {}

/** The archive is not one the registry unpacks: a link, a device, a name outside the package, too many or too large entries. */
export class PackageUnsafe extends ApiError<PackageUnsafe>()("PackageUnsafe", {
  code: "package_unsafe",
  status: 422,
  details: Schema.Struct({
    reason: Schema.String,
    entry: Schema.NullOr(Schema.String),
    limit: Schema.NullOr(Schema.Number)
  })
}) {}

/** The package's app.json is missing, not what it must be, or names a command or install script the package lacks. */
export class PackageManifestInvalid extends ApiError<PackageManifestInvalid>()("PackageManifestInvalid", {
  code: "package_manifest_invalid",
  status: 422,
  details: Schema.Struct({ problem: Schema.String })
}) {}

/** No runner for this target here (only the host's own target runs, and only when bubblewrap works). */
export class RunnerUnavailable extends ApiError<RunnerUnavailable>()("RunnerUnavailable", {
  code: "runner_unavailable",
  status: 503,
  details: Schema.Struct({ target: Schema.String, runner_targets: Schema.Array(Schema.String) })
}) {}
