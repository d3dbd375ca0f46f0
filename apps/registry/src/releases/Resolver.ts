import { now } from "@platform/service"
import { Duration, Effect, Option } from "effect"
import { AppAccess } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { releaseManifestText } from "../signing/manifest.ts"
import { ReleaseSigningKeys } from "../signing/ReleaseSigningKeys.ts"
import { DeliveryRepo } from "./DeliveryRepo.ts"
import { NoPackageForTarget, ReleaseNotFound, ReleaseWithdrawn } from "./errors.ts"
import type { Channel } from "./Release.ts"
import { type ReleaseRow, ReleasesRepo } from "./ReleasesRepo.ts"
import { releaseOf, withdrawalOf, withdrawnVersionsOf } from "./views.ts"

/** How long a signed manifest may be used: a mirror cannot serve one frozen for longer. */
export const MANIFEST_LIFETIME = Duration.hours(24)

export interface ResolveQuery {
  readonly channel: Channel
  readonly version: string | undefined
  readonly target: string
}

export const downloadPath = (appId: string, packageId: string) =>
  `/v1/apps/${encodeURIComponent(appId)}/packages/${encodeURIComponent(packageId)}/download`

/**
 * Spec 2's resolve: the release a client should install for its target (the channel's newest that is not
 * withdrawn, or the exactly named version), with a manifest signed now: the release, every package's digest and
 * size, the channel's state number and a lifetime, so that a mirror can neither roll a client back nor freeze it.
 */
export class Resolver extends Effect.Service<Resolver>()("registry/Resolver", {
  effect: Effect.gen(function*() {
    const access = yield* AppAccess
    const releases = yield* ReleasesRepo
    const delivery = yield* DeliveryRepo
    const keys = yield* ReleaseSigningKeys

    const named = (appId: string, query: ResolveQuery, version: string) =>
      Effect.gen(function*() {
        const found = yield* releases.findByVersion(appId, query.channel, version)
        if (Option.isNone(found)) {
          return yield* new ReleaseNotFound({ message: `${appId} has no ${query.channel} release ${version}.` })
        }
        const withdrawal = withdrawalOf(found.value)
        if (withdrawal !== null) {
          return yield* new ReleaseWithdrawn({
            message: `${appId} ${version} (${query.channel}) was withdrawn: ${withdrawal.withdrawn.reason}`,
            hint: withdrawal.replacement === null
              ? "Resolve without a version for the newest release that is not withdrawn."
              : `Use the replacement, ${withdrawal.replacement.version}.`,
            details: {
              release_id: found.value.id,
              version,
              reason: withdrawal.withdrawn.reason,
              replacement: withdrawal.replacement,
              withdrawn_at: withdrawal.withdrawn.at.toISOString()
            }
          })
        }
        return found.value
      })

    const newest = (appId: string, query: ResolveQuery) =>
      Effect.flatMap(
        releases.newestServed(appId, query.channel, query.target),
        Option.match({
          onNone: () =>
            Effect.fail(
              new ReleaseNotFound({
                message: `No ${query.channel} release of ${appId} that is not withdrawn has a package for ${query.target}.`
              })
            ),
          onSome: Effect.succeed
        })
      )

    const packageFor = (release: ReleaseRow, target: string) => {
      const item = release.packages.find((candidate) => candidate.target === target)
      return item === undefined
        ? Effect.fail(
          new NoPackageForTarget({
            message: `${release.app_id} ${release.version} has no package for ${target}.`,
            details: { target, targets: release.packages.map((candidate) => candidate.target) }
          })
        )
        : Effect.succeed(item)
    }

    const resolve = (appId: string, caller: Option.Option<Caller>, query: ResolveQuery) =>
      Effect.gen(function*() {
        yield* access.visible(appId, caller)
        // Read before the release: the number signed is never ahead of the state the release was read in.
        const sequence = yield* releases.channelSequence(appId, query.channel)
        const release = query.version === undefined ? yield* newest(appId, query) : yield* named(appId, query, query.version)
        const item = yield* packageFor(release, query.target)
        const served = yield* delivery.servedPackage(appId, item.id)
        const issuedAt = yield* now
        const signature = yield* keys.sign((keyId) =>
          releaseManifestText({
            key_id: keyId,
            app_id: appId,
            release_id: release.id,
            channel: release.channel,
            version: release.version,
            packages: release.packages,
            sequence,
            issued_at: issuedAt,
            expires_at: new Date(issuedAt.getTime() + Duration.toMillis(MANIFEST_LIFETIME))
          })
        )
        return {
          app_id: appId,
          release: releaseOf(release),
          package: item,
          download_path: downloadPath(appId, item.id),
          signature,
          author_signature: release.author_signature,
          install_script: Option.match(served, { onNone: () => null, onSome: (row) => row.install_script }),
          withdrawn: withdrawnVersionsOf(yield* releases.withdrawn(appId, query.channel))
        }
      })

    return { resolve }
  }),
  dependencies: [AppAccess.Default, ReleasesRepo.Default, DeliveryRepo.Default, ReleaseSigningKeys.Default]
}) {}
