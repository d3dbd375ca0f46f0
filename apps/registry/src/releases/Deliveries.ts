import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { AppAccess } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { DeliveryRepo } from "./DeliveryRepo.ts"
import { PackageNotFound, PackageNotInRelease, PackageWithdrawn, ReleaseNotFound } from "./errors.ts"
import { ReleasesRepo } from "./ReleasesRepo.ts"

/** Package downloads and install receipts (spec 2). */
export class Deliveries extends Effect.Service<Deliveries>()("registry/Deliveries", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const delivery = yield* DeliveryRepo
    const releases = yield* ReleasesRepo

    /**
     * The package a caller may download, checked at every request: the app must be visible to the caller; an
     * author gets any package of the app; anyone else a package in a release, 410 when its releases are all withdrawn.
     */
    const downloadable = (appId: string, packageId: string, caller: Option.Option<Caller>) =>
      Effect.gen(function*() {
        const { author } = yield* access.visible(appId, caller)
        const notFound = new PackageNotFound({ message: `${appId} has no package ${packageId} that you can download.` })
        const found = yield* delivery.servedPackage(appId, packageId)
        if (Option.isNone(found)) return yield* notFound
        const served = found.value
        if (!author && served.releases === 0) return yield* notFound
        if (!author && served.live_releases === 0) {
          return yield* new PackageWithdrawn({
            message: `Package ${packageId} is only in withdrawn releases of ${appId}.`,
            hint: "Resolve the app again for a release that is not withdrawn."
          })
        }
        return served
      })

    /** Counts an install the client finished (the route's Idempotency-Key makes a retry count once). */
    const install = (appId: string, caller: Option.Option<Caller>, receipt: { release_id: string; package_id: string }) =>
      Effect.gen(function*() {
        yield* access.visible(appId, caller)
        const release = yield* releases.find(appId, receipt.release_id)
        if (Option.isNone(release)) return yield* new ReleaseNotFound({ message: `${appId} has no release ${receipt.release_id}.` })
        const item = release.value.packages.find((candidate) => candidate.id === receipt.package_id)
        if (item === undefined) {
          return yield* new PackageNotInRelease({
            message: `Package ${receipt.package_id} is not in release ${release.value.version} of ${appId}.`
          })
        }
        const installs = yield* inTransaction(sql)(Effect.flatMap(now, (at) =>
          delivery.recordInstall({
            appId,
            releaseId: release.value.id,
            packageId: item.id,
            target: item.target,
            accountUuid: Option.match(caller, { onNone: () => null, onSome: (account) => account.uuid }),
            at
          })))
        return { installs }
      })

    return { downloadable, bytes: delivery.bytes, install }
  }),
  dependencies: [AppAccess.Default, DeliveryRepo.Default, ReleasesRepo.Default]
}) {}
