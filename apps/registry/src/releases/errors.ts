import { ApiError } from "@platform/http"
import { Schema } from "effect"

export class ReleaseNotFound extends ApiError<ReleaseNotFound>()("ReleaseNotFound", {
  code: "release_not_found",
  status: 404
}) {}

export class PackageNotFound extends ApiError<PackageNotFound>()("PackageNotFound", {
  code: "package_not_found",
  status: 404
}) {}

/** The named release (or the channel's newest) has no package for the target asked. */
export class NoPackageForTarget extends ApiError<NoPackageForTarget>()("NoPackageForTarget", {
  code: "no_package_for_target",
  status: 404,
  details: Schema.Struct({ target: Schema.String, targets: Schema.Array(Schema.String) })
}) {}

export const Replacement = Schema.Struct({ release_id: Schema.String, version: Schema.String }).annotations({
  identifier: "WithdrawalReplacement"
})

/** Spec 2: an exactly named withdrawn version gives 410 release_withdrawn with reason and replacement. */
export class ReleaseWithdrawn extends ApiError<ReleaseWithdrawn>()("ReleaseWithdrawn", {
  code: "release_withdrawn",
  status: 410,
  details: Schema.Struct({
    release_id: Schema.String,
    version: Schema.String,
    reason: Schema.String,
    replacement: Schema.NullOr(Replacement),
    withdrawn_at: Schema.String
  })
}) {}

/** Spec 2: a package only in withdrawn releases gives 410, except to authors. */
export class PackageWithdrawn extends ApiError<PackageWithdrawn>()("PackageWithdrawn", {
  code: "package_withdrawn",
  status: 410
}) {}

export class PackagesNotOfApp extends ApiError<PackagesNotOfApp>()("PackagesNotOfApp", {
  code: "packages_not_of_app",
  status: 422,
  details: Schema.Struct({ package_ids: Schema.Array(Schema.String) })
}) {}

export class DuplicateTargets extends ApiError<DuplicateTargets>()("DuplicateTargets", {
  code: "duplicate_targets",
  status: 422,
  details: Schema.Struct({ targets: Schema.Array(Schema.String) })
}) {}

export class VersionTaken extends ApiError<VersionTaken>()("VersionTaken", {
  code: "version_taken",
  status: 409,
  details: Schema.Struct({ channel: Schema.String, version: Schema.String })
}) {}

/** Only a development release that is not withdrawn can be promoted. */
export class ReleaseNotPromotable extends ApiError<ReleaseNotPromotable>()("ReleaseNotPromotable", {
  code: "release_not_promotable",
  status: 409,
  details: Schema.Struct({ reason: Schema.Literal("withdrawn", "production") })
}) {}

export class ReleaseAlreadyWithdrawn extends ApiError<ReleaseAlreadyWithdrawn>()("ReleaseAlreadyWithdrawn", {
  code: "release_already_withdrawn",
  status: 409
}) {}

export class InvalidReplacement extends ApiError<InvalidReplacement>()("InvalidReplacement", {
  code: "invalid_replacement",
  status: 422,
  details: Schema.Struct({ replacement_release_id: Schema.String, problem: Schema.String })
}) {}

/** The author signature does not verify; `manifest` is the exact text to sign. */
export class AuthorSignatureInvalid extends ApiError<AuthorSignatureInvalid>()("AuthorSignatureInvalid", {
  code: "author_signature_invalid",
  status: 422,
  details: Schema.Struct({ manifest: Schema.String })
}) {}

export class PackageNotInRelease extends ApiError<PackageNotInRelease>()("PackageNotInRelease", {
  code: "package_not_in_release",
  status: 422
}) {}

export class IdempotencyKeyRequired extends ApiError<IdempotencyKeyRequired>()("IdempotencyKeyRequired", {
  code: "idempotency_key_required",
  status: 400
}) {}

/** A query parameter missing or outside its values (spec 2: bad query value 400 listing accepted values). */
export class InvalidQueryValue extends ApiError<InvalidQueryValue>()("InvalidQueryValue", {
  code: "invalid_query",
  status: 400,
  details: Schema.Struct({ parameter: Schema.String, problem: Schema.String, accepted: Schema.Array(Schema.String) })
}) {}
