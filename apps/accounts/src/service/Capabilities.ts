import { accountsVersioning } from "../versions.ts"

/** What this deployment offers, named as callers name requirements in `require`. */
export const FEATURES = ["openapi", "idempotency", "rate_limits", "discovery", "jwks", "versioning"] as const

/** The requirements from a `require` list that this deployment does not satisfy. */
export const missingRequirements = (require: string): ReadonlyArray<string> =>
  require
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    .filter((item) =>
      item.startsWith("version:")
        ? !accountsVersioning.supported.includes(item.slice("version:".length))
        : !(FEATURES as ReadonlyArray<string>).includes(item)
    )
