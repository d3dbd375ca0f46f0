import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AppNotFound, NotAnAuthor } from "../apps/errors.ts"
import { OptionalAccountBearer, OptionalBearer, RegistryBearer } from "../auth/Bearer.ts"
import { registryError } from "../errors.ts"
import { TARGETS } from "../targets/Targets.ts"
import {
  AuthorSignatureInvalid,
  DuplicateTargets,
  IdempotencyKeyRequired,
  InvalidQueryValue,
  InvalidReplacement,
  NoPackageForTarget,
  PackageNotFound,
  PackageNotInRelease,
  PackagesNotOfApp,
  PackageWithdrawn,
  ReleaseAlreadyWithdrawn,
  ReleaseNotFound,
  ReleaseNotPromotable,
  ReleaseWithdrawn,
  VersionTaken
} from "./errors.ts"
import {
  InstallCount,
  InstallReceipt,
  NewRelease,
  Promotion,
  Release,
  ReleaseList,
  ResolveResult,
  WithdrawalRequest
} from "./Release.ts"

const Id = Schema.String.pipe(Schema.maxLength(100))
const AppPath = Schema.Struct({ app_id: Id })
const ReleasePath = Schema.Struct({ app_id: Id, release_id: Id })
const PackagePath = Schema.Struct({ app_id: Id, package_id: Id })

/** Authors' releases: create, promote, withdraw (spec 2), and their listing. */
export class ReleasesApi extends HttpApiGroup.make("releases")
  .add(
    HttpApiEndpoint.post("create", "/v1/apps/:app_id/releases")
      .setPath(AppPath)
      .setPayload(NewRelease)
      .addSuccess(Release, { status: 201 })
      .addError(registryError(AppNotFound))
      .addError(registryError(NotAnAuthor))
      .addError(registryError(PackagesNotOfApp))
      .addError(registryError(DuplicateTargets))
      .addError(registryError(VersionTaken))
      .addError(registryError(AuthorSignatureInvalid))
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "A development release of the app's packages (authors). Every package must be the app's (422 packages_not_of_app " +
          "naming the others), one per target (422 duplicate_targets); the version is MAJOR.MINOR.PATCH[-pre.release], " +
          "unique in the channel, withdrawn versions included (409 version_taken). An optional author_signature (Ed25519 " +
          "over the author manifest) is verified (422 author_signature_invalid with the exact text to sign) and returned by resolve."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/releases")
      .setPath(AppPath)
      .setUrlParams(Schema.Struct({
        channel: Schema.optional(Schema.String).annotations({ description: "production or development; both when absent" })
      }))
      .addSuccess(ReleaseList)
      .addError(registryError(AppNotFound))
      .addError(registryError(InvalidQueryValue))
      .middleware(OptionalBearer)
      .annotate(
        OpenApi.Description,
        "The app's releases, newest first, to whoever may see the app; withdrawn releases are listed with their withdrawal " +
          "(to everyone: a client must learn that a version it holds was withdrawn). A channel other than production or " +
          "development is 400 invalid_query with the accepted values."
      )
  )
  .add(
    HttpApiEndpoint.post("promote", "/v1/apps/:app_id/releases/:release_id/promote")
      .setPath(ReleasePath)
      .setPayload(Promotion)
      .addSuccess(Release, { status: 201 })
      .addError(registryError(AppNotFound))
      .addError(registryError(NotAnAuthor))
      .addError(registryError(ReleaseNotFound))
      .addError(registryError(ReleaseNotPromotable))
      .addError(registryError(VersionTaken))
      .addError(registryError(AuthorSignatureInvalid))
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "A new, immutable production release over the same packages (the same bytes), with a version of the production " +
          "channel's own. Only a development release that is not withdrawn (409 release_not_promotable). Without an " +
          "author_signature of its own it carries the development release's."
      )
  )
  .add(
    HttpApiEndpoint.post("withdraw", "/v1/apps/:app_id/releases/:release_id/withdraw")
      .setPath(ReleasePath)
      .setPayload(WithdrawalRequest)
      .addSuccess(Release)
      .addError(registryError(AppNotFound))
      .addError(registryError(NotAnAuthor))
      .addError(registryError(ReleaseNotFound))
      .addError(registryError(ReleaseAlreadyWithdrawn))
      .addError(registryError(InvalidReplacement))
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "Withdraws a release, finally (a second withdrawal is 409 release_already_withdrawn): it stops being served at once. " +
          "A reason is required; a replacement must be a release of the same app and channel that is not withdrawn. " +
          "Recorded as release.withdrawn in the history and the registry's events."
      )
  )
  .annotate(OpenApi.Title, "Releases")
{}

const GzipBytes = HttpApiSchema.Uint8Array({ contentType: "application/gzip" })

/** What clients do: resolve, download, report an install. */
export class DeliveryApi extends HttpApiGroup.make("delivery")
  .add(
    HttpApiEndpoint.get("resolve", "/v1/apps/:app_id/resolve")
      .setPath(AppPath)
      .setUrlParams(Schema.Struct({
        channel: Schema.optional(Schema.String).annotations({ description: "production (default) or development" }),
        version: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
        target: Schema.optional(Schema.String).annotations({ description: `Required: one of ${TARGETS.join(", ")}` })
      }))
      .addSuccess(ResolveResult)
      .addError(registryError(AppNotFound))
      .addError(registryError(InvalidQueryValue))
      .addError(registryError(ReleaseNotFound))
      .addError(registryError(NoPackageForTarget))
      .addError(registryError(ReleaseWithdrawn))
      .middleware(OptionalAccountBearer)
      .annotate(
        OpenApi.Description,
        "The release to install for a target, with its Ed25519-signed manifest (check it before running the package). " +
          "Without a version, the channel's newest release that is not withdrawn and has the target; an exactly named " +
          "withdrawn version is 410 release_withdrawn with its reason, replacement and time. Not for developer-platform tokens."
      )
  )
  .add(
    HttpApiEndpoint.get("download", "/v1/apps/:app_id/packages/:package_id/download")
      .setPath(PackagePath)
      .addSuccess(GzipBytes)
      .addError(registryError(AppNotFound))
      .addError(registryError(PackageNotFound))
      .addError(registryError(PackageWithdrawn))
      .middleware(OptionalBearer)
      .annotate(
        OpenApi.Description,
        "The package's bytes (application/gzip) with Content-Length and a strong ETag (its SHA-256; If-None-Match answers 304). " +
          "Who may see the app is checked at every download. A package in no release is 404 and one only in withdrawn " +
          "releases 410 package_withdrawn, except to the app's authors."
      )
  )
  .add(
    HttpApiEndpoint.post("install", "/v1/apps/:app_id/installs")
      .setPath(AppPath)
      .setHeaders(Schema.Struct({
        "idempotency-key": Schema.optional(Schema.String).annotations({ description: "Required here: a retry with the same key counts once" })
      }))
      .setPayload(InstallReceipt)
      .addSuccess(InstallCount)
      .addError(registryError(IdempotencyKeyRequired))
      .addError(registryError(AppNotFound))
      .addError(registryError(ReleaseNotFound))
      .addError(registryError(PackageNotInRelease))
      .middleware(OptionalAccountBearer)
      .annotate(
        OpenApi.Description,
        "Counts an install, sent once the client finished installing; with or without an account token (not a " +
          "developer-platform token). Idempotency-Key is required (400 idempotency_key_required): the same key replays " +
          "the first answer and counts nothing more."
      )
  )
  .annotate(OpenApi.Title, "Resolve, download, installs")
{}
