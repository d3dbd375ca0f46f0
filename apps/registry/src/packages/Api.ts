import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { MaxBodyBytes, TimeBudgetMillis } from "@platform/http"
import { Schema } from "effect"
import { AppNotFound, NotAnAuthor } from "../apps/errors.ts"
import { AccountBearer, RegistryBearer } from "../auth/Bearer.ts"
import { registryError } from "../errors.ts"
import { UnknownTarget } from "../targets/Targets.ts"
import { PackageManifestInvalid, PackageUnsafe, PackageValidationFailed, RunnerUnavailable } from "./errors.ts"
import { Package, PackageList } from "./Package.ts"

/** Uploads are at most 5 MB (spec 2) and may take a minute: three commands in the sandbox. */
export const PACKAGE_MAX_BYTES = 5 * 1024 * 1024
export const PACKAGE_TIME_BUDGET_MILLIS = 60_000

const AppPath = Schema.Struct({ app_id: Schema.String })

export const PackageArchive = HttpApiSchema.Uint8Array({ contentType: "application/gzip" }).annotations({
  description: "The package: a .tar.gz of regular files and directories with app.json at its root ({\"command\": \"bin/tool\", \"install_script\": \"install.sh\" optional}), at most 5 MB"
})

export class PackagesApi extends HttpApiGroup.make("packages")
  .add(
    HttpApiEndpoint.post("upload", "/v1/apps/:app_id/packages/:target")
      .setPath(Schema.Struct({ app_id: Schema.String, target: Schema.String }))
      .setPayload(PackageArchive)
      .addSuccess(Package, { status: 201 })
      .addError(registryError(UnknownTarget))
      .addError(registryError(AppNotFound))
      .addError(registryError(NotAnAuthor))
      .addError(registryError(PackageUnsafe))
      .addError(registryError(PackageManifestInvalid))
      .addError(registryError(PackageValidationFailed))
      .addError(registryError(RunnerUnavailable))
      .middleware(AccountBearer)
      .annotate(MaxBodyBytes, PACKAGE_MAX_BYTES)
      .annotate(TimeBudgetMillis, PACKAGE_TIME_BUDGET_MILLIS)
      .annotate(
        OpenApi.Description,
        "An author uploads the app's package for one target (raw .tar.gz, Content-Type application/gzip, at most 5 MB). The registry unpacks it safely (422 package_unsafe naming the entry: links, devices, names outside the package, too many or too large entries) and runs its command with `--help`, `accounts --json` and `login status --json` in a sandbox without network, with a read-only system, an empty environment, a private /tmp, resource limits and a timeout. All three must exit 0; `--help` must print something, `accounts --json` one JSON object or array, `login status --json` one JSON object. A refusal is 422 package_validation_failed with every command result in error.details.validation, and is kept in the app's history (package.refused). 503 runner_unavailable when this registry cannot run the target (see GET /v1/targets)."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/packages")
      .setPath(AppPath)
      .addSuccess(PackageList)
      .addError(registryError(AppNotFound))
      .addError(registryError(NotAnAuthor))
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "The app's accepted packages, newest first (authors only).")
  )
  .annotate(OpenApi.Title, "Packages")
{}
