import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { extractToFreshDirectory } from "@platform/sandbox"
import { now } from "@platform/service"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { AppAccess } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { HistoryRepo } from "../history/HistoryRepo.ts"
import { PackageRunner } from "../targets/PackageRunner.ts"
import { type Target, targetOf } from "../targets/Targets.ts"
import { PackageUnsafe, PackageValidationFailed, RunnerUnavailable } from "./errors.ts"
import { readManifest, sha256OfBytes } from "./Manifest.ts"
import type { Package } from "./Package.ts"
import { type PackageRow, PackagesRepo } from "./PackagesRepo.ts"
import { validatePackage } from "./Validation.ts"

export const packageOf = (row: PackageRow): Package => ({
  id: row.id,
  target: row.target as Target,
  sha256: row.sha256,
  size: row.size,
  command: row.command ?? "",
  validation: row.validation,
  created_at: row.created_at
})

const noRunner = (target: Target, runnerTargets: ReadonlyArray<string>) =>
  new RunnerUnavailable({
    message: `No runner can validate ${target} packages here now.`,
    hint: runnerTargets.length === 0
      ? "The sandbox is not available on this registry; retry later."
      : `This registry runs ${runnerTargets.join(", ")} packages.`,
    details: { target, runner_targets: [...runnerTargets] }
  })

/**
 * Packages (spec 2): an author uploads a `.tar.gz` for one target; it is unpacked safely, its app.json read,
 * and its command run with the three validation commands in the sandbox. Accepted, it is stored with a
 * `package.accepted` history item in one transaction; refused (unsafe archive, unusable manifest, a command
 * that does not show what it must), only a `package.refused` history item is written, and it is written
 * outside any transaction of ours so that it stays although the request fails (see decisions.md).
 */
export class Packages extends Effect.Service<Packages>()("registry/Packages", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const repo = yield* PackagesRepo
    const history = yield* HistoryRepo
    const runner = yield* PackageRunner

    const upload = (appId: string, caller: Caller, targetName: string, body: Uint8Array) =>
      Effect.gen(function*() {
        const target = yield* targetOf("target", targetName)
        yield* access.asAuthor(appId, caller)
        const runnerTargets = yield* runner.runnerTargets
        if (!runnerTargets.includes(target)) return yield* noRunner(target, runnerTargets)
        const uploaded = { target, sha256: sha256OfBytes(body), size: body.length }
        const refused = <E>(data: Record<string, unknown>, error: E) =>
          Effect.zipRight(history.record(appId, caller.uuid, "package.refused", { ...uploaded, ...data }), Effect.fail(error))

        return yield* runner.exclusive(Effect.scoped(Effect.gen(function*() {
          const extracted = yield* extractToFreshDirectory(body).pipe(
            Effect.catchTag("UnsafeArchive", (unsafe) =>
              refused(
                { reason: "package_unsafe", unsafe: { reason: unsafe.reason, entry: unsafe.entry } },
                new PackageUnsafe({
                  message: unsafe.message,
                  hint: "A package is a .tar.gz of regular files and directories inside its root, without links or devices.",
                  details: { reason: unsafe.reason, entry: unsafe.entry, limit: unsafe.limit ?? null }
                })
              ))
          )
          const manifest = yield* readManifest(extracted).pipe(
            Effect.catchTag("PackageManifestInvalid", (invalid) =>
              refused({ reason: "package_manifest_invalid", problem: invalid.details?.problem ?? invalid.message }, invalid))
          )
          const validation = yield* validatePackage(runner.run, extracted.directory, manifest.command).pipe(
            Effect.catchTag("SandboxUnavailable", () => Effect.fail(noRunner(target, [])))
          )
          if (!validation.every((result) => result.passed)) {
            const failed = validation.filter((result) => !result.passed).map((result) => result.command)
            return yield* refused(
              { reason: "package_validation_failed", command: manifest.command, validation },
              new PackageValidationFailed({
                message: `The package did not pass validation: ${failed.map((command) => `\`${command}\``).join(", ")} did not show what ${failed.length === 1 ? "it" : "they"} must.`,
                hint: "Each result in details.validation says what its command must show (expected) and what it did.",
                details: { ...uploaded, command: manifest.command, validation }
              })
            )
          }
          const row = {
            id: `pkg_${randomUUID().replaceAll("-", "")}`,
            appId,
            ...uploaded,
            command: manifest.command,
            validation,
            installScript: manifest.installScript,
            bytes: body,
            uploadedBy: caller.uuid,
            createdAt: yield* now
          }
          yield* inTransaction(sql)(Effect.zipRight(
            repo.insert(row),
            history.record(appId, caller.uuid, "package.accepted", { package_id: row.id, ...uploaded, command: row.command })
          ))
          return packageOf({ ...row, created_at: row.createdAt })
        })))
      })

    /** The app's packages, newest first (authors only). */
    const list = (appId: string, caller: Caller) =>
      Effect.flatMap(access.asAuthor(appId, caller), () => Effect.map(repo.listOf(appId), (rows) => rows.map(packageOf)))

    return { upload, list }
  }),
  dependencies: [AppAccess.Default, PackagesRepo.Default, HistoryRepo.Default, PackageRunner.Default]
}) {}
