import type { ApiErrorInstance } from "./ApiError.ts"

/** What a refused version's error is made of. */
export interface UnsupportedVersionFields {
  readonly message: string
  readonly hint?: string
  readonly details: { readonly requested: string; readonly supported: ReadonlyArray<string>; readonly current: string }
}
import { UnsupportedVersion } from "./errors.ts"

/** Dated API versions: the header that pins one, the versions served and the current one. */
export interface ApiVersioning {
  readonly header: string
  readonly supported: ReadonlyArray<string>
  readonly current: string
  /** Path prefixes whose responses carry the version header; others are not versioned. */
  readonly prefixes: ReadonlyArray<string>
  /** The header may list several versions in preference order (comma-separated): the first served one is used. */
  readonly preferenceList?: boolean
  /** The refusal of a version not served (default 400 `unsupported_version`); it gets the supported list as details. */
  readonly unsupported?: new(fields: UnsupportedVersionFields) => ApiErrorInstance
}

/** The path is a prefix, or lies under one (`/v1` covers `/v1/meta`, not `/v1x`). */
export const isVersioned = (versioning: ApiVersioning, path: string): boolean =>
  versioning.prefixes.some((prefix) =>
    path.startsWith(prefix) && (path.length === prefix.length || prefix.endsWith("/") || path[prefix.length] === "/"))

/** The version a request selects, or the refusal when it names one that is not served. */
export const selectVersion = (
  versioning: ApiVersioning,
  requested: string | undefined
): string | ApiErrorInstance => {
  if (requested === undefined || requested.trim() === "") return versioning.current
  if (versioning.supported.includes(requested)) return requested
  if (versioning.preferenceList === true) {
    const served = requested.split(",").map((value) => value.trim()).find((value) => versioning.supported.includes(value))
    if (served !== undefined) return served
  }
  const Refusal = versioning.unsupported ?? UnsupportedVersion
  return new Refusal({
    message: `API version ${requested} is not served; use one of ${versioning.supported.join(", ")}.`,
    hint: `Omit the ${versioning.header} header to get the current version, ${versioning.current}.`,
    details: { requested, supported: versioning.supported, current: versioning.current }
  })
}
