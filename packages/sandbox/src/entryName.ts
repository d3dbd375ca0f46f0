import type { UnsafeReason } from "./errors.ts"

export type CheckedName =
  | { readonly _tag: "Path"; readonly segments: ReadonlyArray<string> }
  /** The archive's root itself (`./`): nothing to create. */
  | { readonly _tag: "Root" }
  | { readonly _tag: "Refused"; readonly reason: UnsafeReason; readonly why: string }

const MAX_NAME_LENGTH = 1024
const MAX_SEGMENT_LENGTH = 255

/**
 * An entry's name as a path inside the package: relative, without `..`, without a backslash (a separator
 * on Windows) and without control characters. `./` prefixes and repeated slashes are dropped.
 */
export const checkEntryName = (name: string): CheckedName => {
  if (name.startsWith("/")) return { _tag: "Refused", reason: "absolute_path", why: "is an absolute path" }
  if (/^[A-Za-z]:/.test(name)) return { _tag: "Refused", reason: "absolute_path", why: "names a drive" }
  if (name.includes("\\")) return { _tag: "Refused", reason: "invalid_name", why: "contains a backslash" }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return { _tag: "Refused", reason: "invalid_name", why: "contains a control character" }
  if (name.length > MAX_NAME_LENGTH) return { _tag: "Refused", reason: "invalid_name", why: `is longer than ${MAX_NAME_LENGTH} characters` }
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".")
  if (segments.includes("..")) return { _tag: "Refused", reason: "parent_reference", why: "climbs out with `..`" }
  if (segments.some((segment) => segment.length > MAX_SEGMENT_LENGTH)) {
    return { _tag: "Refused", reason: "invalid_name", why: `has a part longer than ${MAX_SEGMENT_LENGTH} characters` }
  }
  return segments.length === 0 ? { _tag: "Root" } : { _tag: "Path", segments }
}
