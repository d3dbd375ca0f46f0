import { strict } from "@platform/http"
import { Schema } from "effect"
import { Replacement } from "./errors.ts"

export const CHANNELS = ["production", "development"] as const
export type Channel = typeof CHANNELS[number]

/**
 * A release version: MAJOR.MINOR.PATCH with an optional pre-release (`-rc.1`), SemVer 2.0 without build metadata,
 * numbers without leading zeros, at most 64 characters. Versions are unique per app and channel, withdrawn ones too.
 */
export const VERSION_PATTERN = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/

export const Version = Schema.String.pipe(
  Schema.maxLength(64, { message: () => "must be at most 64 characters" }),
  Schema.pattern(VERSION_PATTERN, {
    message: () => "must be MAJOR.MINOR.PATCH with an optional -pre.release (such as 1.4.0 or 2.0.0-rc.1)"
  })
).annotations({ description: "MAJOR.MINOR.PATCH[-pre.release], such as 1.4.0 or 2.0.0-rc.1", examples: ["1.4.0"] })

export const ReleasePackage = Schema.Struct({
  id: Schema.String,
  target: Schema.String,
  sha256: Schema.String.annotations({ description: "lowercase hex of the package's bytes (the .tar.gz)" }),
  size: Schema.Number.annotations({ description: "bytes" })
}).annotations({ identifier: "ReleasePackage" })
export type ReleasePackage = typeof ReleasePackage.Type

/** Spec 2's Withdrawal. */
export const Withdrawal = Schema.Struct({
  withdrawn: Schema.Struct({
    at: Schema.Date,
    by_uuid: Schema.String,
    by_id: Schema.NullOr(Schema.String),
    reason: Schema.String
  }),
  replacement: Schema.NullOr(Replacement)
}).annotations({ identifier: "Withdrawal" })

export const Release = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  channel: Schema.Literal(...CHANNELS),
  version: Schema.String,
  notes: Schema.NullOr(Schema.String),
  packages: Schema.Array(ReleasePackage).annotations({ description: "One per target, in ascending order of target" }),
  promoted_from: Schema.NullOr(Schema.String).annotations({ description: "The development release this production release was promoted from" }),
  created_at: Schema.Date,
  withdrawn: Schema.NullOr(Withdrawal)
}).annotations({ identifier: "Release" })
export type Release = typeof Release.Type

export const ReleaseList = Schema.Struct({ items: Schema.Array(Release) }).annotations({ identifier: "ReleaseList" })

const AuthorSignatureInput = Schema.Struct({
  public_key: Schema.String.pipe(Schema.maxLength(1000)).annotations({ description: "The author's Ed25519 public key, SPKI PEM" }),
  value: Schema.String.pipe(Schema.maxLength(200)).annotations({
    description: "Ed25519 over the UTF-8 bytes of the author manifest of this release (see the decisions), base64"
  })
}).annotations({ identifier: "AuthorSignatureInput" })

export const NewRelease = strict(Schema.Struct({
  version: Version,
  package_ids: Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(
    Schema.minItems(1, { message: () => "must name at least one package" }),
    Schema.maxItems(50)
  ),
  notes: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10_000)))),
  author_signature: Schema.optional(AuthorSignatureInput)
})).annotations({ identifier: "NewRelease" })
export type NewRelease = typeof NewRelease.Type

export const Promotion = strict(Schema.Struct({
  version: Version,
  author_signature: Schema.optional(AuthorSignatureInput)
})).annotations({ identifier: "Promotion" })
export type Promotion = typeof Promotion.Type

export const WithdrawalRequest = strict(Schema.Struct({
  reason: Schema.Trim.pipe(
    Schema.minLength(1, { message: () => "must say why" }),
    Schema.maxLength(1000)
  ),
  replacement_release_id: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100))))
})).annotations({ identifier: "WithdrawalRequest" })
export type WithdrawalRequest = typeof WithdrawalRequest.Type

export const InstallReceipt = strict(Schema.Struct({
  release_id: Schema.String.pipe(Schema.maxLength(100)),
  package_id: Schema.String.pipe(Schema.maxLength(100))
})).annotations({ identifier: "InstallReceipt" })

export const InstallCount = Schema.Struct({
  installs: Schema.Number.annotations({ description: "The app's installs counted so far, this one included" })
}).annotations({ identifier: "InstallCount" })

export const ReleaseSignature = Schema.Struct({
  key_id: Schema.String,
  algorithm: Schema.Literal("ed25519"),
  manifest: Schema.String.annotations({ description: "The exact signed text (JSON); parse it only after the signature holds" }),
  value: Schema.String.annotations({ description: "Ed25519 over the UTF-8 bytes of `manifest`, base64" })
}).annotations({ identifier: "ReleaseSignature" })

export const AuthorSignature = Schema.Struct({
  public_key: Schema.String.annotations({ description: "The author's Ed25519 public key, SPKI PEM" }),
  manifest: Schema.String.annotations({ description: "The author manifest the author signed" }),
  value: Schema.String
}).annotations({ identifier: "AuthorSignature" })
export type AuthorSignature = typeof AuthorSignature.Type

export const InstallScript = Schema.Struct({ path: Schema.String, sha256: Schema.String, size: Schema.Number }).annotations({
  identifier: "InstallScript"
})

export const WithdrawnVersion = Schema.Struct({
  release_id: Schema.String,
  version: Schema.String,
  reason: Schema.String,
  withdrawn_at: Schema.Date,
  replacement: Schema.NullOr(Replacement)
}).annotations({ identifier: "WithdrawnVersion" })

/** Spec 2's Resolve result. */
export const ResolveResult = Schema.Struct({
  app_id: Schema.String,
  release: Release,
  package: ReleasePackage,
  download_path: Schema.String,
  signature: ReleaseSignature,
  author_signature: Schema.NullOr(AuthorSignature),
  install_script: Schema.NullOr(InstallScript),
  withdrawn: Schema.Array(WithdrawnVersion).annotations({ description: "Every withdrawn version of the channel, newest first" })
}).annotations({ identifier: "ResolveResult" })
