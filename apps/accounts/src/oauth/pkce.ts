import { constantTimeEqual } from "@platform/crypto"
import { createHash } from "node:crypto"

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved alphabet. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

export type PkceMethod = "S256" | "plain"

/**
 * Whether the token request's verifier answers the code's challenge. A
 * verifier for a code issued without a challenge does not: it means the
 * client believes PKCE protected a code that it did not (a downgrade).
 */
export const pkceHolds = (
  challenge: { readonly value: string; readonly method: PkceMethod } | null,
  verifier: string | undefined
): boolean => {
  if (challenge === null) return verifier === undefined
  if (verifier === undefined || !VERIFIER.test(verifier)) return false
  const derived = challenge.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier
  return constantTimeEqual(derived, challenge.value)
}
