import { Either } from "effect"
import { InvalidId } from "./errors.ts"

export type AccountKind = "carbon" | "silicon"

/** An account id split into its kind (the prefix) and its handle, lower-cased. */
export interface AccountId {
  readonly kind: AccountKind
  readonly handle: string
}

export const ID_PREFIX: Readonly<Record<AccountKind, string>> = { carbon: "c:", silicon: "si:" }

/** Spec 1, Conventions: reserved handles, plus the service's own name. */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "admin",
  "administrator",
  "root",
  "system",
  "support",
  "help",
  "security",
  "account",
  "silicon",
  "silicons",
  "carbon",
  "carbons",
  "api",
  "www",
  "mail",
  "null",
  "undefined",
  "me",
  "owner",
  "staff",
  "accounts"
])

const HANDLE = /^[a-z0-9_-]{3,30}$/

export const isValidHandle = (handle: string): boolean => HANDLE.test(handle) && !RESERVED_HANDLES.has(handle)

export const formatAccountId = (id: AccountId): string => `${ID_PREFIX[id.kind]}${id.handle}`

const prefixed = (lower: string): { readonly kind: AccountKind | undefined; readonly handle: string } => {
  if (lower.startsWith(ID_PREFIX.carbon)) return { kind: "carbon", handle: lower.slice(ID_PREFIX.carbon.length) }
  if (lower.startsWith(ID_PREFIX.silicon)) return { kind: "silicon", handle: lower.slice(ID_PREFIX.silicon.length) }
  return { kind: undefined, handle: lower }
}

/**
 * Reads `c:<handle>` or `si:<handle>` case-insensitively. A bare handle takes
 * the kind `bare` when given (as POST /v1/silicons does), else it is invalid.
 * Malformed: 422 invalid_id, reason `invalid`; a reserved handle: reason `reserved_word`.
 */
export const parseAccountId = (input: string, bare?: AccountKind): Either.Either<AccountId, InvalidId> => {
  const { kind, handle } = prefixed(input.toLowerCase())
  const resolved = kind ?? bare
  if (resolved === undefined || !HANDLE.test(handle)) {
    return Either.left(
      new InvalidId({
        message: `${JSON.stringify(input)} is not a valid id.`,
        hint: "An id is c: or si: followed by 3 to 30 characters of a-z 0-9 - _.",
        details: { reason: "invalid" }
      })
    )
  }
  if (RESERVED_HANDLES.has(handle)) {
    return Either.left(
      new InvalidId({
        message: `${formatAccountId({ kind: resolved, handle })} is a reserved word and cannot be an id.`,
        details: { reason: "reserved_word" }
      })
    )
  }
  return Either.right({ kind: resolved, handle })
}

/** The kind an id's text names by its prefix, if any (case-insensitive). */
export const prefixKind = (input: string): AccountKind | undefined => prefixed(input.toLowerCase()).kind
