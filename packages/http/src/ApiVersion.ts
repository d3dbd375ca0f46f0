import { UnsupportedVersion } from "./errors.ts"

/** Dated API versions: the header that pins one, the versions served and the current one. */
export interface ApiVersioning {
  readonly header: string
  readonly supported: ReadonlyArray<string>
  readonly current: string
  /** Path prefixes whose responses carry the version header; others are not versioned. */
  readonly prefixes: ReadonlyArray<string>
}

export const isVersioned = (versioning: ApiVersioning, path: string): boolean =>
  versioning.prefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`))

/** The version a request selects, or the refusal when it names one that is not served. */
export const selectVersion = (
  versioning: ApiVersioning,
  requested: string | undefined
): string | UnsupportedVersion => {
  if (requested === undefined || requested === "") return versioning.current
  if (versioning.supported.includes(requested)) return requested
  return new UnsupportedVersion({
    message: `API version ${requested} is not served; use one of ${versioning.supported.join(", ")}.`,
    hint: `Omit the ${versioning.header} header to get the current version, ${versioning.current}.`,
    details: { requested, supported: versioning.supported, current: versioning.current }
  })
}
