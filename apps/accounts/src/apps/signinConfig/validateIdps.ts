import type { Problems } from "./FieldProblem.ts"
import type { SigninConfig } from "./SigninConfig.ts"
import { checkDomain } from "./urlRules.ts"

const APPLE_ID = /^[A-Z0-9]{10}$/
const SERVICES_ID = /^[A-Za-z0-9.-]{1,255}$/

const CLIENT_ID = /^[!-~]{1,255}$/

/** The identity provider settings; byo needs its ids and its secret (known by the config's *_set flags). */
export const validateIdps = (config: SigninConfig, problems: Problems): void => {
  const { idp_a, idp_b } = config
  if (idp_a.client_id !== null && !CLIENT_ID.test(idp_a.client_id)) {
    problems.add("idp_a.client_id", "must be 1 to 255 printable characters without spaces")
  }
  problems.check("idp_a.hosted_domain", idp_a.hosted_domain, checkDomain)
  if (idp_a.mode === "byo") {
    if (idp_a.client_id === null) problems.add("idp_a.client_id", "is required when idp_a.mode is byo")
    if (!idp_a.client_secret_set) problems.add("idp_a.client_secret", "is required when idp_a.mode is byo")
  }
  if (idp_b.services_id !== null && !SERVICES_ID.test(idp_b.services_id)) {
    problems.add("idp_b.services_id", "must be 1 to 255 letters, digits, dots or hyphens")
  }
  for (const field of ["team_id", "key_id"] as const) {
    const value = idp_b[field]
    if (value !== null && !APPLE_ID.test(value)) problems.add(`idp_b.${field}`, "must be 10 upper-case letters or digits")
    if (value === null && idp_b.mode === "byo") problems.add(`idp_b.${field}`, "is required when idp_b.mode is byo")
  }
  if (idp_b.mode === "byo") {
    if (idp_b.services_id === null) problems.add("idp_b.services_id", "is required when idp_b.mode is byo")
    if (!idp_b.private_key_set) problems.add("idp_b.private_key", "is required when idp_b.mode is byo")
  }
}
