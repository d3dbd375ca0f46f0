import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppAccess } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { HistoryRepo } from "../history/HistoryRepo.ts"
import { checkedAuthorSignature } from "./authorSignature.ts"
import {
  DuplicateTargets,
  InvalidReplacement,
  PackagesNotOfApp,
  ReleaseAlreadyWithdrawn,
  ReleaseNotFound,
  ReleaseNotPromotable
} from "./errors.ts"
import type { AuthorSignature, Channel, NewRelease, Promotion, ReleasePackage, WithdrawalRequest } from "./Release.ts"
import { RegistryEventsRepo } from "./RegistryEventsRepo.ts"
import { type ReleaseRow, ReleasesRepo } from "./ReleasesRepo.ts"
import { releaseOf } from "./views.ts"

const notFound = (appId: string, releaseId: string) =>
  new ReleaseNotFound({ message: `${appId} has no release ${releaseId}.` })

const duplicatesOf = (values: ReadonlyArray<string>) => [...new Set(values.filter((value, index) => values.indexOf(value) !== index))]

interface Publication {
  readonly appId: string
  readonly channel: Channel
  readonly version: string
  readonly notes: string | null
  readonly promotedFrom: string | null
  readonly packages: ReadonlyArray<ReleasePackage>
  readonly authorSignature: AuthorSignature | null
}

/** What authors do with releases (spec 2): create a development release, promote it, withdraw a release; and who lists them. */
export class Releases extends Effect.Service<Releases>()("registry/Releases", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const repo = yield* ReleasesRepo
    const history = yield* HistoryRepo
    const events = yield* RegistryEventsRepo

    const existing = (appId: string, releaseId: string) =>
      Effect.flatMap(repo.find(appId, releaseId), Option.match({ onNone: () => Effect.fail(notFound(appId, releaseId)), onSome: Effect.succeed }))

    /** A new release of the channel with the channel's next state number, its history item and its event. */
    const publish = (publication: Publication, caller: Caller) =>
      inTransaction(sql)(Effect.gen(function*() {
        const id = `rel_${randomUUID().replaceAll("-", "")}`
        const sequence = yield* repo.nextSequence(publication.appId, publication.channel)
        yield* repo.insert({
          id,
          app_id: publication.appId,
          channel: publication.channel,
          version: publication.version,
          notes: publication.notes,
          promoted_from: publication.promotedFrom,
          sequence,
          created_by: caller.uuid,
          created_at: yield* now,
          author_signature: publication.authorSignature,
          packages: publication.packages
        })
        const kind = publication.promotedFrom === null ? "release.created" : "release.promoted"
        const data = {
          release_id: id,
          channel: publication.channel,
          version: publication.version,
          package_ids: publication.packages.map((item) => item.id),
          promoted_from: publication.promotedFrom
        }
        yield* history.record(publication.appId, caller.uuid, kind, data)
        yield* events.append(kind, publication.appId, data)
        return releaseOf(Option.getOrThrow(yield* repo.find(publication.appId, id)))
      }))

    /** The packages the ids name, when every one is the app's and their targets are distinct. */
    const packagesFor = (appId: string, ids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const found = yield* repo.packagesOfApp(appId, [...new Set(ids)])
        const foreign = [...new Set(ids)].filter((id) => !found.some((item) => item.id === id))
        if (foreign.length > 0) {
          return yield* new PackagesNotOfApp({
            message: `Not packages of ${appId}: ${foreign.join(", ")}.`,
            hint: "A release groups packages uploaded to this app (GET /v1/apps/{app_id}/packages).",
            details: { package_ids: foreign }
          })
        }
        const packages = ids.flatMap((id) => found.filter((item) => item.id === id))
        const repeated = duplicatesOf(packages.map((item) => item.target))
        if (repeated.length > 0) {
          return yield* new DuplicateTargets({
            message: `A release has one package per target; more than one for ${repeated.join(", ")}.`,
            details: { targets: repeated }
          })
        }
        return packages
      })

    const signatureFor = (
      given: NewRelease["author_signature"],
      manifest: { appId: string; channel: Channel; version: string; packages: ReadonlyArray<ReleasePackage> }
    ) =>
      given === undefined
        ? Effect.succeed(null)
        : checkedAuthorSignature(given, { app_id: manifest.appId, channel: manifest.channel, version: manifest.version, packages: manifest.packages })

    const create = (appId: string, caller: Caller, body: NewRelease) =>
      Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const packages = yield* packagesFor(appId, body.package_ids)
        const authorSignature = yield* signatureFor(body.author_signature, { appId, channel: "development", version: body.version, packages })
        return yield* publish(
          { appId, channel: "development", version: body.version, notes: body.notes ?? null, promotedFrom: null, packages, authorSignature },
          caller
        )
      })

    const promote = (appId: string, releaseId: string, caller: Caller, body: Promotion) =>
      Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const release = yield* existing(appId, releaseId)
        if (release.channel !== "development" || release.withdrawn_at !== null) {
          const reason = release.withdrawn_at !== null ? "withdrawn" : "production"
          return yield* new ReleaseNotPromotable({
            message: reason === "withdrawn"
              ? `Release ${release.version} is withdrawn: a withdrawn release cannot be promoted.`
              : `Release ${release.version} is a production release already: promote a development release.`,
            details: { reason }
          })
        }
        const { packages } = release
        // Without a signature of its own, a promotion carries the development release's (its manifest names that release's version).
        const authorSignature = body.author_signature === undefined
          ? release.author_signature
          : yield* signatureFor(body.author_signature, { appId, channel: "production", version: body.version, packages })
        return yield* publish(
          { appId, channel: "production", version: body.version, notes: release.notes, promotedFrom: release.id, packages, authorSignature },
          caller
        )
      })

    const checkReplacement = (appId: string, release: ReleaseRow, replacementId: string) =>
      Effect.gen(function*() {
        const refuse = (problem: string) =>
          new InvalidReplacement({
            message: `The replacement ${replacementId} ${problem}.`,
            hint: "Name a release of the same app and channel that is not withdrawn, or none.",
            details: { replacement_release_id: replacementId, problem }
          })
        if (replacementId === release.id) return yield* refuse("is the release being withdrawn")
        const replacement = yield* repo.find(appId, replacementId)
        if (Option.isNone(replacement)) return yield* refuse(`is not a release of ${appId}`)
        if (replacement.value.channel !== release.channel) return yield* refuse(`is not a ${release.channel} release`)
        if (replacement.value.withdrawn_at !== null) return yield* refuse("is withdrawn itself")
      })

    const withdraw = (appId: string, releaseId: string, caller: Caller, body: WithdrawalRequest) =>
      Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const release = yield* existing(appId, releaseId)
        const alreadyWithdrawn = new ReleaseAlreadyWithdrawn({
          message: `Release ${release.version} is withdrawn already; a withdrawal is final.`
        })
        if (release.withdrawn_at !== null) return yield* alreadyWithdrawn
        const replacementId = body.replacement_release_id ?? null
        if (replacementId !== null) yield* checkReplacement(appId, release, replacementId)
        return yield* inTransaction(sql)(Effect.gen(function*() {
          const at = yield* now
          const withdrew = yield* repo.withdraw(release.id, { at, byUuid: caller.uuid, byId: caller.id, reason: body.reason, replacementId })
          if (!withdrew) return yield* alreadyWithdrawn
          // The channel changes state: manifests signed from now on carry a greater number.
          yield* repo.nextSequence(appId, release.channel)
          const withdrawn = releaseOf(Option.getOrThrow(yield* repo.find(appId, release.id)))
          const data = {
            release_id: release.id,
            channel: release.channel,
            version: release.version,
            reason: body.reason,
            replacement: withdrawn.withdrawn?.replacement ?? null
          }
          yield* history.record(appId, caller.uuid, "release.withdrawn", data)
          yield* events.append("release.withdrawn", appId, { ...data, withdrawn_at: at.toISOString(), by_uuid: caller.uuid, by_id: caller.id })
          return withdrawn
        }))
      })

    const list = (appId: string, caller: Option.Option<Caller>, channel: Channel | undefined) =>
      Effect.gen(function*() {
        yield* access.visible(appId, caller)
        const rows = yield* repo.list(appId, Option.fromNullable(channel))
        return { items: rows.map(releaseOf) }
      })

    return { create, promote, withdraw, list }
  }),
  dependencies: [AppAccess.Default, ReleasesRepo.Default, HistoryRepo.Default, RegistryEventsRepo.Default]
}) {}
